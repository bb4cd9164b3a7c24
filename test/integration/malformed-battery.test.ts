import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROUTES, type RouteDef } from '../../domain/api-routes';
import { contract, type RouteName } from '../../domain/contract';
import { UNHANDLED_REJECTION_MARKER } from '../../local/process-guard';
import { startRuntimeProcess } from '../support/runtime-child';

/**
 * Issue 10, "input never reaches a 500": a battery of malformed requests generated from the route table, sent to the
 * local runtime in a process of its own (so a crash is seen as one). Every answer must be < 500, every error JSON must
 * say what is wrong in a short `detail` (unknown API routes may answer API Gateway's `{"message":"Not Found"}`), and
 * the runtime must still answer afterwards, having logged no unhandled rejection.
 */

interface Probe {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  unknownRoute?: boolean;
  expect?: number;
}

const HASH = 'a'.repeat(64);
/** Fields the API's request bodies use; each gets every wrong type on every POST route. */
const FIELDS = ['image_hash', 'image_hashes', 'file_type', 'file_size', 'email', 'hashes', 'styles'];
const WRONG_VALUES: unknown[] = [
  null,
  1,
  -1,
  1e308,
  true,
  [],
  {},
  [null],
  [1, 2],
  'x'.repeat(100_000),
  'a\u0000b',
  '\u202Eevil@x.co',
  '%E0%A4%A',
  '<script>x</script>',
  ['x'.repeat(70)],
  Array.from({ length: 1000 }, () => HASH),
];
/** Path parameter values: bad escapes, NUL, bidi, over-long, traversal. Sent raw (they are already escaped). */
const BAD_PARAMS = [
  '%E0%A4%A',
  '%',
  '%zz',
  '%C0%80',
  '%FF%FE',
  '%00',
  'x%00y',
  '%E2%80%AE',
  '%ED%A0%80',
  'a'.repeat(5000),
  '%41'.repeat(3000),
  '..',
  '%2e%2e',
  '%2F',
  '%3Cscript%3E',
  '-1',
  'null',
  'A'.repeat(64),
  '%20',
  '%uD800',
];
/** Values for the query parameters the contract names. Sent raw (they are already escaped). */
const BAD_QUERY_VALUES = ['', 'x', '-1', '1e9', '1,1', '%E0%A4%A', '%00', 'true', 'y'.repeat(5000)];
const BODIES: [string, string | Buffer][] = [
  ['empty', ''],
  ['null', 'null'],
  ['array', '[]'],
  ['string', '"x"'],
  ['number', '123'],
  ['truncated', '{"a":'],
  ['bad json', '{'],
  ['not utf-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ['deep nesting', '['.repeat(50_000) + ']'.repeat(50_000)],
  ['unknown fields', JSON.stringify({ zzz: 1, __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } })],
  ['NUL in JSON', '{"email":"a@b.co\\u0000"}'],
  ['huge key', JSON.stringify({ ['k'.repeat(200_000)]: 1 })],
];
const ELEVEN_MB = Buffer.alloc(11 * 1024 * 1024, 0x20);

function fill(route: RouteDef, value: string): string {
  return route.path.replace(/\{[^}]+\}/g, value);
}

function probes(): Probe[] {
  const out: Probe[] = [];
  for (const route of ROUTES) {
    const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    // Each path parameter in turn gets every bad value (the others a plausible one).
    for (const param of params) {
      for (const bad of BAD_PARAMS) {
        const p = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === param ? bad : HASH));
        // A dot segment ('..', '%2e%2e') is resolved away before routing: the path that is left has no route.
        const dotSegment = /^(\.|%2e){1,2}$/i.test(bad);
        out.push({
          name: `${route.method} ${route.path} ${param}=${bad.slice(0, 20)}`,
          method: route.method,
          path: p,
          body: route.method === 'POST' ? '{}' : undefined,
          unknownRoute: dotSegment || undefined,
        });
      }
    }
    const sample = fill(route, HASH);
    // Wrong methods.
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => m !== route.method)) {
      out.push({
        name: `${method} ${route.path}`,
        method,
        path: sample,
        body: method === 'GET' ? undefined : '{}',
        unknownRoute: true,
      });
    }
    // Bad query strings and over-long headers.
    out.push({
      name: `${route.path} bad query`,
      method: route.method,
      path: `${sample}?%E0%A4%A=%&x=%zz`,
      body: route.method === 'POST' ? '{}' : undefined,
    });
    out.push({
      name: `${route.path} long query`,
      method: route.method,
      path: `${sample}?q=${'x'.repeat(6000)}`,
      body: route.method === 'POST' ? '{}' : undefined,
    });
    // Each query parameter the contract names gets every bad value: a 400 that says what it takes.
    const query = (contract[route.handler as RouteName] as { query?: { shape: Record<string, unknown> } }).query;
    for (const key of Object.keys(query?.shape ?? {})) {
      for (const bad of BAD_QUERY_VALUES) {
        out.push({
          name: `${route.path} ${key}=${bad.slice(0, 20)}`,
          method: route.method,
          path: `${sample}?${key}=${bad}`,
          body: route.method === 'POST' ? '{}' : undefined,
          expect: 400,
        });
      }
    }
    out.push({
      name: `${route.path} long header`,
      method: route.method,
      path: sample,
      headers: { 'x-long': 'y'.repeat(9000) },
      body: route.method === 'POST' ? '{}' : undefined,
    });
    if (route.method !== 'POST') continue;
    // Bodies: missing, malformed, wrong shapes, oversized.
    out.push({ name: `${route.path} no body`, method: 'POST', path: sample });
    for (const [what, body] of BODIES)
      out.push({ name: `${route.path} body ${what}`, method: 'POST', path: sample, body });
    out.push({ name: `${route.path} 11 MB body`, method: 'POST', path: sample, body: ELEVEN_MB, expect: 413 });
    out.push({
      name: `${route.path} octet-stream body`,
      method: 'POST',
      path: sample,
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([0, 1, 2, 255]),
    });
    for (const field of FIELDS) {
      for (const value of WRONG_VALUES) {
        out.push({
          name: `${route.path} ${field}=${JSON.stringify(value)?.slice(0, 20)}`,
          method: 'POST',
          path: sample,
          body: JSON.stringify({ [field]: value }),
        });
      }
    }
  }
  // The webhook's signature header, malformed in every way.
  for (const sig of [
    '',
    't=',
    't=abc,v1=',
    `t=${Math.floor(Date.now() / 1000) + 3600},v1=${'0'.repeat(64)}`,
    't=99999999999999999999,v1=x',
    'x'.repeat(8000),
    '%E0%A4%A',
    't=1,v1=1,v1=2,v0=3',
  ]) {
    out.push({
      name: `webhook signature ${sig.slice(0, 20)}`,
      method: 'POST',
      path: '/api/stripe-webhook',
      headers: { 'stripe-signature': sig },
      body: '{"id":"evt_1","type":"checkout.session.completed"}',
    });
  }
  // Unknown API routes and the site itself with bad escapes.
  for (const p of ['/api/%E0%A4%A', '/api/nope', `/api/${'x'.repeat(5000)}`, '/api', '/api/']) {
    out.push({ name: `GET ${p.slice(0, 30)}`, method: 'GET', path: p, unknownRoute: true });
  }
  for (const p of [
    '/%E0%A4%A',
    '/%',
    '/blog/%E0%A4%A',
    '/status/%zz',
    '/image/%C0%80/x',
    '/assets/%E0%A4%A.js',
    `/${'%41'.repeat(3000)}`,
  ]) {
    out.push({ name: `site GET ${p.slice(0, 30)}`, method: 'GET', path: p, unknownRoute: true });
  }
  return out;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  error?: string;
}

function send(base: URL, probe: Probe): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...probe.headers };
    if (probe.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(probe.body);
    }
    const req = http.request(
      { host: base.hostname, port: base.port, method: probe.method, path: probe.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (err) => resolve({ status: 0, contentType: '', text: '', error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ status: 0, contentType: '', text: '', error: err.message }));
    req.end(probe.body);
  });
}

describe('malformed request battery', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-battery-'));
  let runtime: Awaited<ReturnType<typeof startRuntimeProcess>> | undefined;
  afterAll(async () => {
    await runtime?.kill();
  });

  test('at least 250 malformed requests: none answers ≥ 500, every error has a short detail, the runtime survives', async () => {
    runtime = await startRuntimeProcess(dataDir);
    const base = new URL(runtime.url);
    const all = probes();
    expect(all.length).toBeGreaterThanOrEqual(250);

    const failures: string[] = [];
    let serverErrors = 0;
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const probe = all[next++];
        const answer = await send(base, probe);
        const why = judge(probe, answer);
        if (answer.status >= 500) serverErrors++;
        if (why) failures.push(`${probe.name}: ${why}`);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    console.log(`battery: ${all.length} requests, ${serverErrors} answers ≥ 500, ${failures.length} failures`);

    expect(failures).toEqual([]);
    expect(serverErrors).toBe(0);
    const status = await send(base, { name: 'status', method: 'GET', path: '/api/status' });
    expect(status.status).toBe(200);
    expect(runtime.stderr()).not.toContain(UNHANDLED_REJECTION_MARKER);
  });
});

/** Why an answer is wrong, or null. */
function judge(probe: Probe, answer: Answer): string | null {
  if (answer.error) return `no answer (${answer.error})`;
  if (answer.status >= 500) return `${answer.status} ${answer.text.slice(0, 200)}`;
  if (probe.expect && answer.status !== probe.expect) return `${answer.status}, expected ${probe.expect}`;
  if (answer.status < 400 || !answer.contentType.includes('json')) return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `error body is not JSON: ${answer.text.slice(0, 100)}`;
  }
  const detail = (body as { detail?: unknown })?.detail;
  if (probe.unknownRoute && (body as { message?: unknown })?.message === 'Not Found') return null;
  if (typeof detail !== 'string' || !detail) return `${answer.status} without detail: ${answer.text.slice(0, 100)}`;
  if (detail.length > 300) return `detail of ${detail.length} characters`;
  return null;
}
