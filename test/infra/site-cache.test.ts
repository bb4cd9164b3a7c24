/**
 * Cache headers, CloudFront against the local gateway: CloudFront passes on the Cache-Control S3 stores with each
 * object, which the synthesized site deployments set. For every file of the built site this finds the deployment
 * that uploads it (by the deployments' own filters, as `aws s3 sync` applies them) and expects the local gateway to
 * send that deployment's Cache-Control for it: an audit of the local site then measures what the deployed one serves.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FRONTEND_DIST, REPO_ROOT } from '../../domain/repo-paths';
import { HASHED_DIRS, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../../frontend/build/cache-control';
import { ENVIRONMENTS } from '../../lib/config';
import { prerenderedPaths } from '../../lib/site-function';
import { ToonZapStack } from '../../lib/toonzap-stack';
import { isResponse, loadViewerRequestFunction } from '../../local/cloudfront-function';
import { createGateway } from '../../local/gateway';
import type { LambdaHost } from '../../local/lambda-host';
import { type CfnTemplate, readModel, viewerRequestCode } from '../../local/template';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new ToonZapStack(app, 'SiteCacheTest', {
  config: ENVIRONMENTS.dev,
  env: { account: '123456789012', region: 'eu-west-1' },
});
const template = Template.fromStack(stack).toJSON() as CfnTemplate & {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] }>;
};
const viewerRequest = loadViewerRequestFunction(viewerRequestCode(template));

interface Deployment {
  id: string;
  cacheControl: string | undefined;
  exclude: string[];
  include: string[];
  prune: boolean;
  invalidates: boolean;
  dependsOn: string[];
}

const deployments: Deployment[] = Object.entries(template.Resources)
  .filter(([, r]) => r.Type === 'Custom::CDKBucketDeployment')
  .map(([id, r]) => ({
    id,
    cacheControl: (r.Properties.SystemMetadata as Record<string, string> | undefined)?.['cache-control'],
    exclude: (r.Properties.Exclude as string[] | undefined) ?? [],
    include: (r.Properties.Include as string[] | undefined) ?? [],
    // The handler's default is to prune.
    prune: r.Properties.Prune !== false && r.Properties.Prune !== 'false',
    invalidates: r.Properties.DistributionId !== undefined,
    dependsOn: r.DependsOn ?? [],
  }));

/** `aws s3 sync` filters: every file is in, then each --exclude and --include in turn (later wins); `*` spans `/`. */
function syncs(d: Deployment, key: string): boolean {
  const match = (pattern: string) =>
    new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    ).test(key);
  let included = true;
  for (const p of d.exclude) if (match(p)) included = false;
  for (const p of d.include) if (match(p)) included = true;
  return included;
}

function distFiles(dir = FRONTEND_DIST): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? distFiles(full) : [path.relative(FRONTEND_DIST, full).split(path.sep).join('/')];
  });
}

/** The deployment that stores `key`: exactly one must. */
function deploymentOf(key: string): Deployment {
  const found = deployments.filter((d) => syncs(d, key));
  expect([key, found.map((d) => d.id)]).toEqual([key, [expect.any(String)]]);
  return found[0] as Deployment;
}

describe('site deployment cache headers', () => {
  const files = distFiles().filter((f) => f !== '.build-site-url');

  test('two deployments: hashed files immutable and never pruned, then the rest revalidated, pruned and invalidated', () => {
    expect(deployments).toHaveLength(2);
    const hashed = deployments.find((d) => d.cacheControl === IMMUTABLE_CACHE_CONTROL);
    const rest = deployments.find((d) => d.cacheControl === REVALIDATE_CACHE_CONTROL);
    expect(hashed).toMatchObject({ prune: false, invalidates: false });
    expect(rest).toMatchObject({ prune: true, invalidates: true });
    // The pages go up only after the chunks they name.
    expect(rest?.dependsOn).toContain(hashed?.id);
    // Pruning the pages' deployment must not delete the chunks older pages still name.
    for (const dir of HASHED_DIRS) expect(syncs(rest as Deployment, `${dir}/old-chunk-a1b2c3d4.js`)).toBe(false);
  });

  test('every built file is uploaded by one deployment; the hashed folders hold only content-hashed names', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) deploymentOf(f);
    const hashedFiles = files.filter((f) => deploymentOf(f).cacheControl === IMMUTABLE_CACHE_CONTROL);
    expect(hashedFiles.some((f) => f.startsWith('assets/') && f.endsWith('.js'))).toBe(true);
    expect(hashedFiles.some((f) => f.startsWith('figures/'))).toBe(true);
    for (const f of hashedFiles) expect(path.basename(f)).toMatch(/[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/);
  });

  describe('the local gateway sends what CloudFront would', () => {
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

    test('for every page and every other file of the site', async () => {
      // Pages by their address (the function maps them to their file), other files by their own.
      const uris = [
        ...prerenderedPaths(REPO_ROOT),
        '/status/abc',
        ...files.filter((f) => !f.endsWith('.html')).map((f) => `/${f}`),
      ];
      const seen: Array<[string, string | null]> = [];
      const expected: Array<[string, string | undefined]> = [];
      for (const uri of uris) {
        const out = viewerRequest({ method: 'GET', uri });
        if (isResponse(out)) throw new Error(`${uri} is answered by the function, not the bucket`);
        const res = await fetch(base + uri, { method: 'HEAD' });
        expect([uri, res.status]).toEqual([uri, 200]);
        seen.push([uri, res.headers.get('cache-control')]);
        expected.push([uri, deploymentOf(out.uri.slice(1)).cacheControl]);
      }
      expect(seen).toEqual(expected);
      expect(seen).toContainEqual(['/', REVALIDATE_CACHE_CONTROL]);
      expect(seen.filter(([u]) => u.startsWith('/assets/')).map(([, c]) => c)).toContain(IMMUTABLE_CACHE_CONTROL);
    });
  });
});
