/**
 * ToonZap model server: SageMaker inference-container contract (GET /ping, POST /invocations),
 * also reachable as POST /endpoints/{name}/invocations so the SageMaker runtime SDK can be pointed
 * at it locally. Reads the input image from S3, renders, writes a PNG back to S3.
 *
 *   PORT=8080 npx tsx engine/server.ts
 */

import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { mediaKey } from '../domain/wiring';
import { readBody } from './http-body';
import {
  type Analysis,
  analysisFromJson,
  analysisToJson,
  analyzePhoto,
  ImageInputError,
  isStyleId,
  renderAllThumbnails,
  renderStyle,
  renderThumbnail,
  STYLE_IDS,
  warmAnalysisThread,
  warmStylePool,
} from './index';

/** Largest accepted request body (JSON; a base64 `input.data` image must fit in it). */
const MAX_BODY = 16 * 1024 * 1024;

export interface ModelServerOptions {
  port?: number;
  host?: string;
  /** Injected S3 client (default: built from the standard AWS environment). */
  s3?: S3Client;
}

export interface ModelServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface S3Location {
  bucket: string;
  key: string;
}

interface InvocationRequest {
  input: S3Location | { data: string };
  output?: S3Location;
  style: string;
  size?: number;
  kind: 'image' | 'thumbnail';
  watermark: boolean;
}

/** A client error (bad request / unknown style / bad image): reported as SageMaker's ModelError. */
class ClientError extends Error {}

function isLocation(v: unknown): v is S3Location {
  const o = v as S3Location;
  return (
    !!o &&
    typeof o === 'object' &&
    typeof o.bucket === 'string' &&
    o.bucket.length > 0 &&
    typeof o.key === 'string' &&
    o.key.length > 0
  );
}

interface BatchRequest {
  input: S3Location;
  outputs: (S3Location & { style: string })[];
  size?: number;
  kind: 'image' | 'thumbnail';
  watermark: boolean;
}

/** Batch form: one input decoded once, several styles, each to its own object (previews use it). */
export function parseBatch(body: Record<string, unknown>): BatchRequest {
  if (!isLocation(body.input)) throw new ClientError('"input" must be {"bucket","key"} for a batch.');
  const outputs = body.outputs;
  if (!Array.isArray(outputs) || outputs.length === 0 || outputs.length > 32)
    throw new ClientError('"outputs" must list 1 to 32 {"style","bucket","key"}.');
  for (const o of outputs) {
    if (!isLocation(o)) throw new ClientError('Each output must be {"style","bucket","key"}.');
    if (!isStyleId((o as { style?: unknown }).style))
      throw new ClientError(
        `Unknown style '${String((o as { style?: unknown }).style)}'. Known styles: ${STYLE_IDS.join(', ')}.`,
      );
  }
  const single = parseInvocation({
    ...body,
    outputs: undefined,
    output: outputs[0],
    style: (outputs[0] as { style: string }).style,
  });
  return {
    input: body.input,
    outputs: outputs as BatchRequest['outputs'],
    size: single.size,
    kind: single.kind,
    watermark: single.watermark,
  };
}

async function readInput(s3: S3Client, { bucket, key }: S3Location): Promise<Buffer> {
  try {
    const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!obj.Body) throw new Error('empty body');
    return Buffer.from(await obj.Body.transformToByteArray());
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'NoSuchKey' || name === 'NoSuchBucket' || name === 'NotFound')
      throw new ClientError(`Input object s3://${bucket}/${key} not found.`);
    throw err;
  }
}

/**
 * The photo's analysis, computed once per photo and kept beside the input in its bucket as
 * analysis/<sha256 of the bytes>.json, so the preview batch and every paid render share it. The cache is a
 * speed-up only: an unreadable or corrupt entry is recomputed, a failed write is logged.
 */
export async function cachedAnalysis(s3: S3Client, bucket: string, bytes: Buffer): Promise<Analysis> {
  const key = mediaKey.analysis(createHash('sha256').update(bytes).digest('hex'));
  try {
    const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (obj.Body) return analysisFromJson(await obj.Body.transformToString());
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'NoSuchKey' && name !== 'NotFound')
      console.warn(`[toonzap-model] analysis cache read failed (${name ?? err}), recomputing`);
  }
  const analysis = await analyzePhoto(bytes);
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: analysisToJson(analysis),
        ContentType: 'application/json',
      }),
    );
  } catch (err) {
    console.warn(`[toonzap-model] analysis cache write failed: ${(err as Error).message}`);
  }
  return analysis;
}

async function invokeBatch(req: BatchRequest, s3: S3Client): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const bytes = await readInput(s3, req.input);
  const analysis = await cachedAnalysis(s3, req.input.bucket, bytes);
  const wanted = new Set(req.outputs.map((o) => o.style));
  let rendered: { style: string; png: Buffer }[];
  if (req.kind === 'thumbnail') {
    const all = await renderAllThumbnails(bytes, { size: req.size ?? 256, watermark: req.watermark, analysis });
    rendered = all.filter((t) => wanted.has(t.styleId)).map((t) => ({ style: t.styleId, png: t.png }));
  } else {
    rendered = [];
    for (const style of wanted)
      rendered.push({
        style,
        png: await renderStyle(bytes, style, { maxSize: req.size ?? 2048, enlarge: true, analysis }),
      });
  }
  const byStyle = new Map(rendered.map((r) => [r.style, r.png]));
  const outputs = await Promise.all(
    req.outputs.map(async (o) => {
      const png = byStyle.get(o.style)!;
      await s3.send(new PutObjectCommand({ Bucket: o.bucket, Key: o.key, Body: png, ContentType: 'image/png' }));
      const meta = await sharp(png).metadata();
      return { style: o.style, bucket: o.bucket, key: o.key, width: meta.width, height: meta.height };
    }),
  );
  return { outputs, ms: Math.round(performance.now() - t0) };
}

export function parseInvocation(body: unknown): InvocationRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ClientError('Request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  const input = b.input as Record<string, unknown> | undefined;
  const hasData = !!input && typeof input === 'object' && typeof input.data === 'string';
  if (!isLocation(input) && !hasData)
    throw new ClientError('"input" must be {"bucket","key"} (or {"data": base64} for small images).');
  if (b.output !== undefined && !isLocation(b.output)) throw new ClientError('"output" must be {"bucket","key"}.');
  if (!hasData && b.output === undefined) throw new ClientError('"output" {"bucket","key"} is required.');
  if (typeof b.style !== 'string') throw new ClientError('"style" is required.');
  if (!isStyleId(b.style)) throw new ClientError(`Unknown style '${b.style}'. Known styles: ${STYLE_IDS.join(', ')}.`);
  const kind = b.kind ?? 'image';
  if (kind !== 'image' && kind !== 'thumbnail') throw new ClientError('"kind" must be "image" or "thumbnail".');
  if (b.size !== undefined && (!Number.isInteger(b.size) || (b.size as number) < 16 || (b.size as number) > 4096)) {
    throw new ClientError('"size" must be an integer between 16 and 4096.');
  }
  if (b.watermark !== undefined && typeof b.watermark !== 'boolean')
    throw new ClientError('"watermark" must be a boolean.');
  return {
    input: hasData ? { data: input.data as string } : (input as unknown as S3Location),
    output: b.output as S3Location | undefined,
    style: b.style,
    size: b.size as number | undefined,
    kind,
    watermark: (b.watermark as boolean | undefined) ?? false,
  };
}

function modelError(res: http.ServerResponse, message: string): void {
  const body = JSON.stringify({
    ErrorCode: 'CLIENT_ERROR_FROM_MODEL',
    LogStreamArn: '',
    OriginalMessage: message,
    OriginalStatusCode: 400,
    Message: `Received client error (400) from model with message "${message}".`,
  });
  res.writeHead(424, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-amzn-errortype': 'ModelError:http://internal.amazon.com/coral/com.amazon.sagemaker/',
  });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, obj: unknown): void {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function defaultS3(): S3Client {
  // Endpoint from AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL and region from AWS_REGION (SDK v3 reads them).
  return new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
}

async function invoke(req: InvocationRequest, s3: S3Client): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  let bytes: Buffer;
  if ('data' in req.input) {
    bytes = Buffer.from(req.input.data, 'base64');
  } else {
    const { bucket, key } = req.input;
    try {
      const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!obj.Body) throw new Error('empty body');
      bytes = Buffer.from(await obj.Body.transformToByteArray());
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NoSuchBucket' || name === 'NotFound') {
        throw new ClientError(`Input object s3://${bucket}/${key} not found.`);
      }
      throw err;
    }
  }
  // inline data is a one-off (no bucket to keep an analysis in); an S3 input shares its cached analysis
  const analysis = 'data' in req.input ? undefined : await cachedAnalysis(s3, req.input.bucket, bytes);
  const png =
    req.kind === 'thumbnail'
      ? await renderThumbnail(bytes, req.style, { size: req.size ?? 256, watermark: req.watermark, analysis })
      : await renderStyle(bytes, req.style, { maxSize: req.size ?? 2048, enlarge: true, analysis });
  const meta = await sharp(png).metadata();
  const result: Record<string, unknown> = { width: meta.width, height: meta.height, style: req.style };
  if (req.output) {
    await s3.send(
      new PutObjectCommand({ Bucket: req.output.bucket, Key: req.output.key, Body: png, ContentType: 'image/png' }),
    );
    result.output = { bucket: req.output.bucket, key: req.output.key };
  } else {
    result.data = png.toString('base64');
  }
  result.ms = Math.round(performance.now() - t0);
  return result;
}

const INVOCATIONS = /^\/(?:endpoints\/[^/]+\/)?invocations\/?$/;

export function startModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  const s3 = opts.s3 ?? defaultS3();
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/ping' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, { status: 'healthy' });
      return;
    }
    if (!INVOCATIONS.test(url)) {
      sendJson(res, 404, { message: 'Not found' });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { message: 'Method not allowed' });
      return;
    }
    (async () => {
      try {
        const raw = await readBody(req, MAX_BODY);
        if (!raw) throw new ClientError(`Request body larger than ${MAX_BODY} bytes.`);
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new ClientError('Request body must be valid JSON.');
        }
        const isBatch = !!body && typeof body === 'object' && 'outputs' in (body as object);
        const result = isBatch
          ? await invokeBatch(parseBatch(body as Record<string, unknown>), s3)
          : await invoke(parseInvocation(body), s3);
        sendJson(res, 200, result);
      } catch (err) {
        if (err instanceof ClientError || err instanceof ImageInputError) {
          modelError(res, err.message);
        } else {
          console.error('[toonzap-model] invocation failed:', err);
          sendJson(res, 500, { message: 'Internal model error' });
        }
      }
    })();
  });
  server.requestTimeout = 120_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, opts.host ?? '0.0.0.0', () => {
      const addr = server.address() as AddressInfo;
      const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`,
        port: addr.port,
        close: () =>
          new Promise<void>((r, j) => {
            server.close((e) => (e ? j(e) : r()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 8080);
  // style worker threads started and JIT-warm, and the analysis threads' models loaded, before /ping answers:
  // the first request is not a cold one
  Promise.all([warmStylePool(), warmAnalysisThread()])
    .then(() => startModelServer({ port, host: process.env.HOST ?? '0.0.0.0' }))
    .then(
      (s) => {
        console.log(`[toonzap-model] listening on ${s.url} (port ${s.port})`);
        const stop = () => void s.close().then(() => process.exit(0));
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      },
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
}
