/**
 * ToonZap model server: SageMaker inference-container contract (GET /ping, POST /invocations),
 * also reachable as POST /endpoints/{name}/invocations so the SageMaker runtime SDK can be pointed
 * at it locally. Reads the input image from S3, renders, writes a PNG back to S3 (server-io.ts).
 *
 *   PORT=8080 npx tsx engine/server.ts
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMainThread } from 'node:worker_threads';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import {
  type EngineBatchRequest,
  type EngineCheckRequest,
  type EngineCheckResponse,
  EngineRequestError,
  type EngineSingleRequest,
  parseEngineRequest,
} from '../domain/engine-request';
import { readBody } from './http-body';
import {
  type Analysis,
  DEFAULT_MAX_SIZE,
  DEFAULT_THUMBNAIL_SIZE,
  ImageInputError,
  renderAllThumbnails,
  renderStyleImage,
  renderThumbnail,
  warmAnalysisThread,
  warmStylePool,
} from './index';
import { checkQuality, type QualityMeasures, type QualityResult } from './quality-gate';
import type { Image8 } from './raster';
import { ClientError, cachedAnalysis, defaultS3, modelError, readInput, sendJson } from './server-io';

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

/** One log line per verdict of the gate (CloudWatch Logs of the endpoint; the local runtime's console). */
function logVerdict(what: Record<string, unknown>, q: QualityResult): void {
  const line = JSON.stringify({ msg: 'quality gate', ...what, ...q });
  if (q.ok) console.log(`[toonzap-model] ${line}`);
  else console.warn(`[toonzap-model] ${line}`);
}

/**
 * Paid images pass the quality gate (quality-gate.ts) before they are stored, faces included (renderStyle kept
 * them: a face failing here means face keeping broke):
 * a failure is the model's client error (the order pipeline retries it, then fails and refunds the item with this
 * reason). Previews are not gated: free, and their 2 s budget has no room for it. Engine styles are deterministic,
 * so no second try is made here.
 */
async function gate(
  photo: Buffer,
  render: { png: Buffer; image: Image8 },
  style: string,
  analysis?: Analysis,
): Promise<QualityMeasures> {
  const q = await checkQuality(photo, render.png, { faces: true, analysis, pixels: render.image });
  logVerdict({ style }, q);
  if (!q.ok) throw new ClientError(`Quality gate failed for ${style}: ${q.reason}`);
  return { edgeCorrelation: q.edgeCorrelation, contrast: q.contrast, faces: q.faces };
}

/**
 * The `check` operation: the gate's verdict, faces included, on an image made elsewhere (a generative model's)
 * against its photo, whose analysis is the cached one its previews and renders share. A failing image is an
 * answer, not an error: the caller decides (asks the model again, or refunds).
 */
async function invokeCheck(req: EngineCheckRequest, s3: S3Client): Promise<EngineCheckResponse> {
  const t0 = performance.now();
  const [photo, output] = await Promise.all([readInput(s3, req.input), readInput(s3, req.output)]);
  const analysis = await cachedAnalysis(s3, req.input.bucket, photo, { thorough: true });
  const q = await checkQuality(photo, output, { faces: true, analysis });
  logVerdict({ op: 'check', key: req.output.key }, q);
  return { ...q, ms: Math.round(performance.now() - t0) };
}

async function invokeBatch(req: EngineBatchRequest, s3: S3Client): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const bytes = await readInput(s3, req.input);
  const wanted = new Set(req.outputs.map((o) => o.style));
  let rendered: { style: string; png: Buffer; quality?: QualityMeasures }[];
  if (req.kind === 'thumbnail') {
    // the analysis is read from the cache while the photo decodes, else computed on that decode; its cache write is
    // awaited before the answer
    const writes: Promise<void>[] = [];
    const all = await renderAllThumbnails(bytes, {
      size: req.size ?? DEFAULT_THUMBNAIL_SIZE,
      watermark: req.watermark,
      analysis: (compute) => cachedAnalysis(s3, req.input.bucket, bytes, { thorough: false, writes, compute }),
    });
    await Promise.all(writes);
    rendered = all.filter((t) => wanted.has(t.styleId)).map((t) => ({ style: t.styleId, png: t.png }));
  } else {
    const analysis = await cachedAnalysis(s3, req.input.bucket, bytes, { thorough: true });
    rendered = [];
    for (const style of wanted) {
      const render = await renderStyleImage(bytes, style, {
        maxSize: req.size ?? DEFAULT_MAX_SIZE,
        enlarge: true,
        analysis,
      });
      rendered.push({ style, png: render.png, quality: await gate(bytes, render, style, analysis) });
    }
  }
  const byStyle = new Map(rendered.map((r) => [r.style, r]));
  const outputs = await Promise.all(
    req.outputs.map(async (o) => {
      const { png, quality } = byStyle.get(o.style)!;
      await s3.send(new PutObjectCommand({ Bucket: o.bucket, Key: o.key, Body: png, ContentType: 'image/png' }));
      const meta = await sharp(png).metadata();
      return { style: o.style, bucket: o.bucket, key: o.key, width: meta.width, height: meta.height, quality };
    }),
  );
  return { outputs, ms: Math.round(performance.now() - t0) };
}

async function invoke(req: EngineSingleRequest, s3: S3Client): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const bytes = 'data' in req.input ? Buffer.from(req.input.data, 'base64') : await readInput(s3, req.input);
  // inline data is a one-off (no bucket to keep an analysis in); an S3 input shares its cached analysis
  const bucket = 'data' in req.input ? undefined : req.input.bucket;
  let png: Buffer;
  let quality: QualityMeasures | undefined;
  if (req.kind === 'thumbnail') {
    png = await renderThumbnail(bytes, req.style, {
      size: req.size ?? DEFAULT_THUMBNAIL_SIZE,
      watermark: req.watermark,
      analysis: bucket ? (compute) => cachedAnalysis(s3, bucket, bytes, { thorough: false, compute }) : undefined,
    });
  } else {
    const analysis = bucket ? await cachedAnalysis(s3, bucket, bytes, { thorough: true }) : undefined;
    const render = await renderStyleImage(bytes, req.style, {
      maxSize: req.size ?? DEFAULT_MAX_SIZE,
      enlarge: true,
      analysis,
    });
    png = render.png;
    quality = await gate(bytes, render, req.style, analysis);
  }
  const meta = await sharp(png).metadata();
  const result: Record<string, unknown> = { width: meta.width, height: meta.height, style: req.style, quality };
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
        const parsed = parseEngineRequest(body);
        const result = parsed.check
          ? await invokeCheck(parsed.request, s3)
          : parsed.batch
            ? await invokeBatch(parsed.request, s3)
            : await invoke(parsed.request, s3);
        sendJson(res, 200, result);
      } catch (err) {
        if (err instanceof ClientError || err instanceof EngineRequestError || err instanceof ImageInputError) {
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

// The container's process (engine/Dockerfile). Not a worker thread: bundled, this file is its bundle's main module
// too, and the local container (local/engine-container.ts) runs it in a thread on a port of its own.
if (require.main === module && isMainThread) {
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
