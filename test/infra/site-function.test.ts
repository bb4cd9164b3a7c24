/**
 * The site's CloudFront Function is generated from domain/site-routes.ts at synth time. Here the synthesized
 * code runs in node:vm (as cloudfront-js-2.0 runs it) over a table of paths, and the local gateway, which runs
 * the same code, must answer each path with the file the function chose or with the function's own 404.
 */

import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { API_ORIGIN_PATHS, isApiOriginPath } from '../../domain/api-routes';
import { FRONTEND_DIST, REPO_ROOT } from '../../domain/repo-paths';
import { ENVIRONMENTS } from '../../lib/config';
import { contentSlugs, MAX_FUNCTION_BYTES, pageFile, prerenderedPaths } from '../../lib/site-function';
import { ToonZapStack } from '../../lib/toonzap-stack';
import { isResponse, loadViewerRequestFunction } from '../../local/cloudfront-function';
import { createGateway } from '../../local/gateway';
import type { LambdaHost } from '../../local/lambda-host';
import { type CfnTemplate, readModel, viewerRequestCode } from '../../local/template';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new ToonZapStack(app, 'SiteFunctionTest', {
  config: ENVIRONMENTS.dev,
  env: { account: '123456789012', region: 'eu-west-1' },
});
const template = Template.fromStack(stack).toJSON() as CfnTemplate;
const code = viewerRequestCode(template);
const run = loadViewerRequestFunction(code);

const article = 'pixar-filter-ai-generator';
const guide = contentSlugs(REPO_ROOT, 'guides')[0];

/** path -> the object key CloudFront asks the bucket for, or 404 answered by the function itself. */
const TABLE: Array<[string, string | 404]> = [
  ['/', '/index.html'],
  ['/pricing', '/pricing/index.html'],
  ['/pricing/', '/pricing/index.html'],
  ['/terms', '/terms/index.html'],
  ['/privacy', '/privacy/index.html'],
  ['/refund', '/refund/index.html'],
  ['/blog', '/blog/index.html'],
  ['/guides', '/guides/index.html'],
  [`/blog/${article}`, `/blog/${article}/index.html`],
  [`/blog/${article}/`, `/blog/${article}/index.html`],
  ['/404', '/404/index.html'],
  ['/status', '/app.html'],
  ['/status/abc', '/app.html'],
  ['/image/abc', '/app.html'],
  ['/image/abc/anime', '/app.html'],
  ['/favicon.svg', '/favicon.svg'],
  ['/sitemap.xml', '/sitemap.xml'],
  ['/blog/no-such-article', 404],
  ['/guides/no-such-guide', 404],
  ['/blog/a/b', 404],
  ['/status/a/b', 404],
  ['/image', 404],
  ['/pricing/extra', 404],
  ['/no-such-page', 404],
  ['/BLOG', 404],
  ...(guide ? ([[`/guides/${guide}`, `/guides/${guide}/index.html`]] as Array<[string, string]>) : []),
];

describe('site CloudFront Function (generated from the route list)', () => {
  test('fits the 10 KB CloudFront allows, and names every prerendered page', () => {
    expect(Buffer.byteLength(code)).toBeLessThanOrEqual(MAX_FUNCTION_BYTES);
    const paths = prerenderedPaths(REPO_ROOT);
    expect(paths).toContain(`/blog/${article}`);
    for (const p of paths)
      expect([p, (run({ method: 'GET', uri: p }) as { uri?: string }).uri]).toEqual([p, pageFile(p)]);
  });

  test.each(TABLE)('%s -> %s', (uri, expected) => {
    const out = run({ method: 'GET', uri });
    if (expected === 404) {
      expect(isResponse(out)).toBe(true);
      if (!isResponse(out)) return;
      expect(out.statusCode).toBe(404);
      expect(out.headers?.['content-type']?.value).toMatch(/^text\/html/);
      // The body is the built not-found document (noindex), or the plain one before a build.
      expect(typeof out.body === 'object' ? out.body.data : out.body).toMatch(/<meta name="robots" content="noindex"/);
    } else {
      expect(isResponse(out)).toBe(false);
      expect((out as { uri: string }).uri).toBe(expected);
    }
  });

  test('the code runs without Node: no require, process or timers in its context', () => {
    expect(() => loadViewerRequestFunction(`${code}\nrequire('fs');`)).toThrow(/require is not defined/);
  });
});

describe('local gateway runs the same function', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    const model = readModel(template);
    const lambdas = { invoke: () => Promise.reject(new Error('no Lambda should run')) } as unknown as LambdaHost;
    server = http.createServer(
      createGateway({
        routes: model.routes,
        lambdas,
        staticDir: FRONTEND_DIST,
        siteFunctionCode: model.siteFunctionCode,
        siteHeaders: {},
        apiOriginHeaders: {},
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );

  // Share pages (/image/...) never reach the site: CloudFront and the gateway send them to the API (below).
  test.each(TABLE.filter(([uri]) => !isApiOriginPath(uri)))('%s', async (uri, expected) => {
    const res = await fetch(base + uri);
    const body = await res.text();
    if (expected === 404) {
      const fnOut = run({ method: 'GET', uri });
      expect(res.status).toBe(404);
      expect(body).toBe(isResponse(fnOut) && typeof fnOut.body === 'object' ? fnOut.body.data : undefined);
    } else {
      expect(res.status).toBe(200);
      expect(body).toBe(fs.readFileSync(path.join(FRONTEND_DIST, expected), 'utf8'));
    }
  });

  test('share pages go to the API, as CloudFront routes /image/* (API_ORIGIN_PATHS)', async () => {
    // The stand-in Lambda host refuses every call: a 503 here means the gateway asked the API, not the bucket.
    for (const uri of ['/image/abc', '/image/abc/anime']) expect((await fetch(base + uri)).status).toBe(503);
    expect(API_ORIGIN_PATHS).toEqual(['/api/*', '/image/*']);
  });

  test('unknown API routes and wrong methods answer as API Gateway does: 404 {"message":"Not Found"}', async () => {
    for (const [method, p] of [
      ['GET', '/api/no-such-route'],
      ['GET', '/api/checkout'],
      ['DELETE', '/api/config'],
      ['GET', '/api'],
    ]) {
      const res = await fetch(base + p, { method });
      expect([method, p, res.status, await res.json()]).toEqual([method, p, 404, { message: 'Not Found' }]);
    }
  });
});
