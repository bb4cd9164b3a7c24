import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { isApiOriginPath } from '../domain/api-routes';
import { readBody } from '../engine/http-body';
import { cacheControlFor } from '../frontend/build/cache-control';
import type { HttpResult } from '../lambdas/lib/http';
import { apiEvent } from './api-event';
import { isResponse, loadViewerRequestFunction } from './cloudfront-function';
import type { LambdaHost } from './lambda-host';
import type { LocalRoute } from './template';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

interface CompiledRoute {
  route: LocalRoute;
  regex: RegExp;
  params: string[];
}

/** A route's matcher: its `{name}` parameters each match one path segment (the route table's paths are plain). */
function compile(route: LocalRoute): CompiledRoute {
  const params: string[] = [];
  const pattern = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, regex: new RegExp(`^${pattern}$`), params };
}

export interface GatewayOptions {
  routes: LocalRoute[];
  lambdas: LambdaHost;
  staticDir: string;
  /** The template's CloudFront Function: it decides which file answers a site path, or answers itself (404). */
  siteFunctionCode: string;
  /** The site's security headers and CSP (domain/security-headers.ts), as CloudFront's response headers policy adds them. */
  siteHeaders: Record<string, string>;
  /** Headers CloudFront adds to every API request (the origin secret the HTTP wrapper checks). */
  apiOriginHeaders: Record<string, string>;
}

/**
 * Plays API Gateway (HTTP API, payload 2.0) for the paths CloudFront sends to the API (API_ORIGIN_PATHS: /api/*,
 * share pages) and CloudFront for the site: the synthesized CloudFront
 * Function maps each path to a file of the built frontend (or answers 404), served compressed.
 */
export function createGateway(opts: GatewayOptions): http.RequestListener {
  const compiled = opts.routes.map(compile);
  const siteFunction = loadViewerRequestFunction(opts.siteFunctionCode);
  const gzCache = new Map<string, { mtime: number; body: Buffer; gz: Buffer | null }>();

  async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const match = compiled.find((c) => c.route.method === method && c.regex.test(url.pathname));
    if (!match) {
      // An HTTP API answers any request without a matching route (a wrong method included) this way.
      return sendJson(res, 404, { message: 'Not Found' });
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body) return sendJson(res, 413, { detail: 'Request body is larger than 10 MB.' }, { connection: 'close' });
    const values = match.regex.exec(url.pathname)!.slice(1);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
    Object.assign(headers, opts.apiOriginHeaders);
    const contentType = headers['content-type'] ?? '';
    const textual = !contentType || /json|text|x-www-form-urlencoded|xml/.test(contentType);
    // Payload 2.0 hands cookies over as a list, not as a header.
    const cookies = headers.cookie?.split(/;\s*/).filter(Boolean);
    delete headers.cookie;
    const event = apiEvent({
      routeKey: `${match.route.method} ${match.route.path}`,
      path: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      cookies,
      pathParameters: match.params.length ? Object.fromEntries(match.params.map((p, i) => [p, values[i]])) : undefined,
      body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: body.length > 0 && !textual,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId: Math.random().toString(36).slice(2),
    });
    let result: HttpResult;
    try {
      result = (await opts.lambdas.invoke(match.route.functionId, event)) as HttpResult;
    } catch (err) {
      console.error(`[api] ${event.routeKey} failed:`, err);
      return sendJson(res, 503, { message: 'Service Unavailable' });
    }
    const out = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
    // Site paths the API answers (share pages) get the site's headers, as CloudFront's response headers policy adds them.
    const headers_ = url.pathname.startsWith('/api/')
      ? (result.headers ?? {})
      : { ...result.headers, ...opts.siteHeaders };
    if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
    send(res, result.statusCode, headers_, out);
  }

  function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const text = (status: number, body: string) => send(res, status, { 'content-type': 'text/plain' }, body);
    if (!fs.existsSync(path.join(opts.staticDir, 'index.html')))
      return text(503, 'The frontend is not built: run `npm run build:frontend`.');
    const out = siteFunction({ method: req.method ?? 'GET', uri: url.pathname });
    if (isResponse(out)) {
      const headers: Record<string, string> = { ...opts.siteHeaders };
      for (const [k, v] of Object.entries(out.headers ?? {})) headers[k] = v.value;
      const body =
        typeof out.body === 'string'
          ? out.body
          : out.body?.encoding === 'base64'
            ? Buffer.from(out.body.data, 'base64')
            : (out.body?.data ?? '');
      send(res, out.statusCode, headers, req.method === 'HEAD' ? '' : body);
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(out.uri);
    } catch {
      return text(400, 'Bad Request');
    }
    const file = path.join(opts.staticDir, path.normalize(rel));
    // What S3 answers for a key it does not hold (CloudFront passes it on).
    if (!file.startsWith(opts.staticDir) || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return text(404, 'Not Found');
    const stat = fs.statSync(file);
    let cached = gzCache.get(file);
    if (!cached || cached.mtime !== stat.mtimeMs) {
      const body = fs.readFileSync(file);
      const compressible = /\.(html|js|css|json|svg|txt|xml|webmanifest)$/.test(file);
      cached = { mtime: stat.mtimeMs, body, gz: compressible ? zlib.gzipSync(body, { level: 9 }) : null };
      gzCache.set(file, cached);
    }
    const headers: Record<string, string> = {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      // What the deployment stores with each object (lib/site.ts), so CloudFront sends the same.
      'cache-control': cacheControlFor(rel),
      ...opts.siteHeaders,
      vary: 'accept-encoding',
    };
    const gz = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? cached.gz : null;
    if (gz) headers['content-encoding'] = 'gzip';
    send(res, 200, headers, req.method === 'HEAD' ? '' : (gz ?? cached.body));
  }

  return (req, res) => {
    // Every path of a request ends in an answer: a throw anywhere (sync or async) is logged and answered, never
    // left to reach the process as an unhandled rejection.
    const work = (async () => {
      const url = requestUrl(req.url);
      if (!url) return sendJson(res, 400, { detail: 'Malformed request target.' });
      return isApiOriginPath(url.pathname) ? api(req, res, url) : serveStatic(req, res, url);
    })();
    work.catch((err) => {
      console.error('[gateway]', err);
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error.' });
      else res.destroy();
    });
  };
}

/** API Gateway's payload limit: larger bodies are refused with 413 before any handler runs. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The request target as a URL on this origin, or null when it cannot be one (absolute-form junk and the like). */
function requestUrl(target: string | undefined): URL | null {
  if (!target?.startsWith('/')) return target ? null : new URL('/', 'http://localhost');
  try {
    // Prefixed with the origin so `//host/x` stays a path on this origin instead of naming another host.
    return new URL(`http://localhost${target}`);
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string): void {
  res.writeHead(status, headers);
  res.end(body);
}

const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers = {}) =>
  send(res, status, { 'content-type': 'application/json', ...headers }, JSON.stringify(body));
