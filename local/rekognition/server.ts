/**
 * Local stand-in for Amazon Rekognition's DetectModerationLabels (AWS JSON 1.1 protocol).
 *
 * Point the unchanged handler code at it with
 *   AWS_ENDPOINT_URL_REKOGNITION=http://127.0.0.1:<port>
 * and `new RekognitionClient({}).send(new DetectModerationLabelsCommand({ Image, MinConfidence }))` lands here.
 *
 * Wire format (what @aws-sdk/client-rekognition 3.x serialises / deserialises):
 *   request : POST /  X-Amz-Target: RekognitionService.DetectModerationLabels
 *             Content-Type: application/x-amz-json-1.1
 *             {"Image": {"Bytes": "<base64>"} | {"S3Object": {"Bucket", "Name", "Version"?}},
 *              "MinConfidence"?: 0..100, "HumanLoopConfig"?, "ProjectVersion"?}
 *   200     : {"ModerationLabels": [{"Confidence", "Name", "ParentName", "TaxonomyLevel"}],
 *              "ModerationModelVersion": "local-nsfwjs-mobilenetv2", "ContentTypes": [{"Confidence", "Name"}]}
 *   error   : 4xx/5xx, header x-amzn-errortype: <Name>,
 *             {"__type": "<Name>", "Code": "<Name>", "Message": "...", "message": "...", "Logref": "<id>"}
 *             (the SDK resolves <Name> to its exception class, e.g. InvalidImageFormatException).
 * Request signatures are not verified. Only DetectModerationLabels is implemented; any other target gets
 * UnknownOperationException (400).
 *
 * Images referenced by S3Object are read with the S3Client passed in `opts.s3`, or one built from env:
 * AWS_ENDPOINT_URL_S3 (endpoint), S3_FORCE_PATH_STYLE=true, AWS_REGION, AWS_ACCESS_KEY_ID/SECRET.
 */

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { GetObjectCommand, type GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { readBody } from '../../engine/http-body';
import {
  DEFAULT_MIN_CONFIDENCE,
  loadNsfwModel,
  ModerationInputError,
  moderateImage,
  type NsfwModelInfo,
} from './nsfw-model';

export const SERVICE_TARGET_PREFIX = 'RekognitionService';
/** Rekognition limits: 5 MB for Image.Bytes (decoded), 15 MB for S3 objects. */
export const MAX_BYTES_IMAGE = 5 * 1024 * 1024;
export const MAX_S3_IMAGE = 15 * 1024 * 1024;
/** Largest request body we buffer (5 MB image as base64 + JSON overhead). */
const MAX_BODY = 8 * 1024 * 1024;

export interface LocalRekognitionOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** S3 client for Image.S3Object; default is built from env (see file header). */
  s3?: S3Client;
  /** Start loading the model right away instead of on the first request (default false). */
  preload?: boolean;
  /** Diagnostics sink (model load time, per-request timings, internal errors); default silent. */
  log?: (line: string) => void;
}

export interface LocalRekognition {
  url: string;
  port: number;
  /** DetectModerationLabels requests received so far (tests count model calls with it). */
  calls(): number;
  close(): Promise<void>;
}

type RekognitionErrorName =
  | 'InvalidImageFormatException'
  | 'ImageTooLargeException'
  | 'InvalidS3ObjectException'
  | 'InvalidParameterException'
  | 'UnknownOperationException'
  | 'SerializationException'
  | 'InternalServerError';

class RekognitionError extends Error {
  constructor(
    readonly type: RekognitionErrorName,
    message: string,
    readonly status: number = type === 'InternalServerError' ? 500 : 400,
  ) {
    super(message);
    this.name = type;
  }
}

const MSG = {
  invalidParameters: 'Request has invalid parameters',
  invalidFormat: 'Request has invalid image format',
  tooLarge: 'Image size is too large.',
  s3: 'Unable to get object metadata from S3. Check object key, region and/or access permissions.',
} as const;

function s3ClientFromEnv(): S3Client {
  return new S3Client({
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
    ...(process.env.AWS_ENDPOINT_URL_S3 ? { endpoint: process.env.AWS_ENDPOINT_URL_S3 } : {}),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64Image(b64: unknown): Buffer {
  if (typeof b64 !== 'string' || b64.length === 0) {
    throw new RekognitionError('InvalidParameterException', MSG.invalidParameters);
  }
  // Cheap size check before decoding: 4 base64 chars → 3 bytes.
  if (Math.floor((b64.length * 3) / 4) - 2 > MAX_BYTES_IMAGE) {
    throw new RekognitionError('ImageTooLargeException', MSG.tooLarge);
  }
  if (b64.length % 4 !== 0 || !BASE64_RE.test(b64)) {
    throw new RekognitionError('InvalidParameterException', 'Image.Bytes is not valid base64');
  }
  const buf = Buffer.from(b64, 'base64');
  if (buf.length > MAX_BYTES_IMAGE) throw new RekognitionError('ImageTooLargeException', MSG.tooLarge);
  return buf;
}

function s3ErrorIsClientSide(err: unknown): boolean {
  if (!isObject(err)) return false;
  const name = typeof err.name === 'string' ? err.name : '';
  if (
    [
      'NoSuchKey',
      'NoSuchBucket',
      'NotFound',
      'AccessDenied',
      'Forbidden',
      'NoSuchVersion',
      'InvalidArgument',
      'InvalidBucketName',
      'InvalidAccessKeyId',
      'SignatureDoesNotMatch',
      'PermanentRedirect',
    ].includes(name)
  ) {
    return true;
  }
  const meta = err.$metadata;
  const status = isObject(meta) && typeof meta.httpStatusCode === 'number' ? meta.httpStatusCode : 0;
  return status >= 300 && status < 500;
}

async function readS3Image(s3: S3Client, s3Object: unknown): Promise<Buffer> {
  if (!isObject(s3Object)) throw new RekognitionError('InvalidParameterException', MSG.invalidParameters);
  const { Bucket, Name, Version } = s3Object;
  if (
    typeof Bucket !== 'string' ||
    !Bucket ||
    typeof Name !== 'string' ||
    !Name ||
    (Version !== undefined && typeof Version !== 'string')
  ) {
    throw new RekognitionError('InvalidParameterException', MSG.invalidParameters);
  }
  let res: GetObjectCommandOutput;
  try {
    res = await s3.send(new GetObjectCommand({ Bucket, Key: Name, ...(Version ? { VersionId: Version } : {}) }));
  } catch (err) {
    if (s3ErrorIsClientSide(err)) throw new RekognitionError('InvalidS3ObjectException', MSG.s3);
    const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new RekognitionError('InternalServerError', `Could not read s3://${Bucket}/${Name}: ${why}`);
  }
  const body = res.Body;
  if (!body) throw new RekognitionError('InvalidS3ObjectException', MSG.s3);
  if (typeof res.ContentLength === 'number' && res.ContentLength > MAX_S3_IMAGE) {
    const destroy = (body as { destroy?: () => void }).destroy;
    if (typeof destroy === 'function') destroy.call(body);
    throw new RekognitionError('ImageTooLargeException', MSG.tooLarge);
  }
  const bytes = Buffer.from(await body.transformToByteArray());
  if (bytes.length > MAX_S3_IMAGE) throw new RekognitionError('ImageTooLargeException', MSG.tooLarge);
  return bytes;
}

function parseMinConfidence(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_MIN_CONFIDENCE;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) {
    throw new RekognitionError('InvalidParameterException', 'MinConfidence must be a number between 0 and 100');
  }
  return v;
}

interface Ctx {
  getS3(): S3Client;
  log: (line: string) => void;
}

async function detectModerationLabels(input: unknown, ctx: Ctx): Promise<Record<string, unknown>> {
  if (!isObject(input)) throw new RekognitionError('SerializationException', 'Request body must be a JSON object');
  const minConfidence = parseMinConfidence(input.MinConfidence);
  const image = input.Image;
  if (!isObject(image)) throw new RekognitionError('InvalidParameterException', MSG.invalidParameters);
  const hasBytes = image.Bytes !== undefined && image.Bytes !== null;
  const hasS3 = image.S3Object !== undefined && image.S3Object !== null;
  if (hasBytes === hasS3) {
    // Neither or both: Rekognition wants exactly one image source.
    throw new RekognitionError('InvalidParameterException', MSG.invalidParameters);
  }
  const t0 = performance.now();
  const bytes = hasBytes ? decodeBase64Image(image.Bytes) : await readS3Image(ctx.getS3(), image.S3Object);
  const tRead = performance.now() - t0;
  const result = await moderateImage(bytes, minConfidence).catch((err: unknown) => {
    throw err instanceof ModerationInputError ? new RekognitionError(err.code, err.message) : err;
  });
  const { timings, scores } = result.classification;
  ctx.log(
    `[local-rekognition] DetectModerationLabels ${hasBytes ? 'Bytes' : 'S3Object'} ${bytes.length}B ` +
      `read=${tRead.toFixed(1)}ms decode=${timings.decodeMs.toFixed(1)}ms infer=${timings.inferMs.toFixed(1)}ms ` +
      `scores=${JSON.stringify(scores)} labels=${result.ModerationLabels.map((l) => l.Name).join('|') || '-'}`,
  );
  const out: Record<string, unknown> = {
    ModerationLabels: result.ModerationLabels,
    ModerationModelVersion: result.ModerationModelVersion,
    ContentTypes: result.ContentTypes,
  };
  // Custom adapters are not supported locally; like Rekognition with an expired adapter, we simply
  // omit ProjectVersion in the answer and use the base model. HumanLoopConfig is ignored.
  return out;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}

function sendError(res: http.ServerResponse, requestId: string, err: RekognitionError): void {
  send(
    res,
    err.status,
    { __type: err.type, Code: err.type, Message: err.message, message: err.message, Logref: requestId },
    { 'x-amzn-requestid': requestId, 'x-amzn-errortype': err.type },
  );
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx): Promise<void> {
  const requestId = randomUUID();
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const body = await readBody(req, MAX_BODY);
    if (req.method !== 'POST' || target !== `${SERVICE_TARGET_PREFIX}.DetectModerationLabels`) {
      throw new RekognitionError(
        'UnknownOperationException',
        target
          ? `Operation ${target} is not supported by the local Rekognition stand-in`
          : 'Missing X-Amz-Target header',
      );
    }
    if (body === null) throw new RekognitionError('ImageTooLargeException', MSG.tooLarge);
    let input: unknown;
    try {
      input = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch {
      throw new RekognitionError('SerializationException', 'Request body is not valid JSON');
    }
    const out = await detectModerationLabels(input, ctx);
    send(res, 200, out, { 'x-amzn-requestid': requestId });
  } catch (err) {
    if (err instanceof RekognitionError) {
      if (err.status >= 500) ctx.log(`[local-rekognition] ${err.type}: ${err.message}`);
      sendError(res, requestId, err);
      return;
    }
    ctx.log(`[local-rekognition] internal error: ${err instanceof Error ? err.stack : String(err)}`);
    sendError(res, requestId, new RekognitionError('InternalServerError', 'Internal server error'));
  }
}

export async function startLocalRekognition(opts: LocalRekognitionOptions = {}): Promise<LocalRekognition> {
  const log = opts.log ?? (() => {});
  let ownS3: S3Client | undefined;
  const ctx: Ctx = {
    log,
    getS3: () => {
      if (opts.s3) return opts.s3;
      ownS3 ??= s3ClientFromEnv();
      return ownS3;
    },
  };

  const logLoad = (info: NsfwModelInfo): void =>
    log(
      `[local-rekognition] model ready: nsfwjs MobileNetV2 ${info.inputSize}px on ${info.backend}, load ${info.loadMs.toFixed(0)} ms`,
    );
  let loadLogged = false;
  const ensureLoadLogged = (): void => {
    if (loadLogged) return;
    loadLogged = true;
    loadNsfwModel().then(logLoad, (e: unknown) => log(`[local-rekognition] model load failed: ${String(e)}`));
  };
  if (opts.preload) ensureLoadLogged();

  let calls = 0;
  const server = http.createServer((req, res) => {
    ensureLoadLogged();
    if (req.headers['x-amz-target'] === `${SERVICE_TARGET_PREFIX}.DetectModerationLabels`) calls++;
    void handle(req, res, ctx);
  });
  // Keep-alive sockets from SDK agents must not keep close() waiting.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const wildcard = addr.address === '0.0.0.0' || addr.address === '::';
  const host = wildcard ? '127.0.0.1' : addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port: addr.port,
    calls: () => calls,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }).finally(() => {
        ownS3?.destroy();
      });
      return closing;
    },
  };
}

if (require.main === module) {
  // `npx tsx local/rekognition/server.ts` → standalone server on LOCAL_REKOGNITION_PORT (default: a free port).
  const port = Number(process.env.LOCAL_REKOGNITION_PORT ?? 0);
  startLocalRekognition({ port, preload: true, log: (l) => console.log(l) }).then(
    (srv) => {
      console.log(`[local-rekognition] listening on ${srv.url}  (export AWS_ENDPOINT_URL_REKOGNITION=${srv.url})`);
      const stop = (): void => {
        void srv.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
