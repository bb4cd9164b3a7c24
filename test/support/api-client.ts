import { S3Client } from '@aws-sdk/client-s3';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { sha256 } from '../fixtures/photos';

/**
 * A visitor's side of the local runtime, for tests that talk to one (started here or shared): API calls with cookies,
 * uploads, job polling, the media bucket. Nothing here loads the runtime itself (test/support/runtime.ts does).
 */
export { PHOTOS, photo, sha256 } from '../fixtures/photos';

/** An S3 client on the runtime's local media bucket (s3rver). */
export function mediaClient(runtime: { s3Url: string }): S3Client {
  return new S3Client({
    endpoint: runtime.s3Url,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: S3RVER_CREDENTIALS,
  });
}

export interface Api {
  get(path: string): Promise<{ status: number; body: any; headers: Headers }>;
  post(path: string, body: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** The cookies this client holds (its owner secret, once an upload issued one). */
  readonly cookies: Map<string, string>;
}

/**
 * One visitor's browser against the API: it keeps the cookies the API sets (the owner secret) and sends them back,
 * as a browser does on the site's own origin. Each call of api() is another visitor.
 */
export function api(baseUrl: string, sameBrowserAs?: Api): Api {
  // The same browser on another address (a restarted runtime): its cookies go along.
  const cookies = sameBrowserAs?.cookies ?? new Map<string, string>();
  const call = async (method: string, p: string, body?: unknown) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(baseUrl + p, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    // Not enumerable: tests compare {status, body} with toEqual, and the headers are there when asked for.
    return Object.defineProperty({ status: res.status, body: parsed as any }, 'headers', { value: res.headers }) as {
      status: number;
      body: any;
      headers: Headers;
    };
  };
  return { get: (p) => call('GET', p), post: (p, b) => call('POST', p, b), cookies };
}

/** The owner id the server keeps for a client's owner secret (lambdas/lib/owners.ts): for records a test writes itself. */
export function ownerIdOf(client: Api): string {
  const secret = client.cookies.get('tz_owner');
  if (!secret) throw new Error('this client has no owner secret yet: upload something first');
  return sha256(Buffer.from(secret));
}

/** The headers a presigned upload URL signs, as the browser sends them (fetch adds Content-Length). */
export function uploadHeaders(hash: string, type: string): Record<string, string> {
  return {
    'content-type': type,
    'x-amz-checksum-sha256': Buffer.from(hash, 'hex').toString('base64'),
    'if-none-match': '*',
  };
}

/** Registers and uploads a photo the way the browser does; returns its hash. */
export async function uploadPhoto(client: Api, bytes: Buffer, type = 'image/png'): Promise<string> {
  const hash = sha256(bytes);
  const reg = await client.post('/api/upload-image', { image_hash: hash, file_type: type, file_size: bytes.length });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  if (reg.body.status === 'upload') {
    const put = await fetch(reg.body.url.url, {
      method: 'PUT',
      headers: uploadHeaders(hash, type),
      body: new Uint8Array(bytes),
    });
    if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  }
  return hash;
}

/** Follows a job until it is final, as the style step does: each request held by the server until the job ends (?wait=1). */
export async function waitForJob(client: Api, jobId: string, timeoutMs = 180_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    // A connection error is retried like a poll in a browser would be (a pooled socket the server closed while
    // its event loop was busy rendering).
    // So is a 503: the gateway's answer when the handler ran out of time on a starved machine (as API Gateway's is).
    const res = await client.get(`/api/jobs/${jobId}?wait=1`).catch(() => null);
    if (res && res.status !== 503) {
      if (res.status !== 200) throw new Error(`job ${jobId}: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.body === 'SUCCESS' || res.body === 'FAILURE') return res.body;
    }
    // The server held the answer (up to JOB_WAIT_MS); a short pause only keeps a failing connection from spinning.
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish in ${timeoutMs} ms`);
}
