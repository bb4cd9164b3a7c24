/**
 * The model server's input and output (engine/server.ts): the photo read from S3, its analysis cached beside it,
 * and the answers SageMaker's inference-container contract expects (JSON, and its ModelError for client errors).
 */

import { createHash } from 'node:crypto';
import type http from 'node:http';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Location } from '../domain/engine-request';
import { mediaKey } from '../domain/wiring';
import { type Analysis, analysisFromJson, analysisToJson, analyzePhoto } from './index';

/** A client error (input not found, body too large or not JSON): reported as SageMaker's ModelError, as are
 *  requests the shared schema refuses (EngineRequestError). */
export class ClientError extends Error {}

export async function readInput(s3: S3Client, { bucket, key }: S3Location): Promise<Buffer> {
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
 * Analyses being computed in this process, by cache key and thoroughness: an order's items of one photo arrive
 * together, and each would otherwise analyse the photo again.
 */
const computing = new Map<string, Promise<Analysis>>();

/**
 * The photo's analysis, computed once per photo and kept beside the input in its bucket as
 * analysis/<sha256 of the bytes>.json, so the preview batch and every paid render share it. `thorough`: a paid
 * render's, which looks for small faces beside large ones; a preview's cached one that did not is computed again
 * (once, then kept). The cache is a speed-up only: an unreadable or corrupt entry is recomputed, a failed write is
 * logged. `writes`: a computed analysis is returned at once and its write pushed there (the caller awaits it
 * before it answers), so the renders need not wait for it. `compute`: how to compute it (a preview analyses its own
 * decode); by default analyzePhoto.
 */
export async function cachedAnalysis(
  s3: S3Client,
  bucket: string,
  bytes: Buffer,
  opts: { thorough: boolean; writes?: Promise<void>[]; compute?: () => Promise<Analysis> },
): Promise<Analysis> {
  const key = mediaKey.analysis(createHash('sha256').update(bytes).digest('hex'));
  const cached = await readAnalysis(s3, bucket, key);
  if (cached && (cached.thorough || !opts.thorough)) return cached;
  const id = `${bucket}/${key}:${opts.thorough}`;
  let pending = computing.get(id);
  if (!pending) {
    const compute = opts.compute ?? (() => analyzePhoto(bytes, { thorough: opts.thorough }));
    pending = computeAnalysis(s3, bucket, key, compute, opts.writes);
    computing.set(id, pending);
    void pending.then(
      () => computing.delete(id),
      () => computing.delete(id),
    );
  }
  return pending;
}

async function readAnalysis(s3: S3Client, bucket: string, key: string): Promise<Analysis | undefined> {
  try {
    const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (obj.Body) return analysisFromJson(await obj.Body.transformToString());
  } catch (err) {
    const name = (err as { name?: string }).name;
    // A role that may list only by prefix (lib/storage.ts grantMedia) is told 403 for a missing key: a miss too; a
    // real refusal shows on the write below.
    if (name !== 'NoSuchKey' && name !== 'NotFound' && name !== 'AccessDenied')
      console.warn(`[toonzap-model] analysis cache read failed (${name ?? err}), recomputing`);
  }
  return undefined;
}

async function computeAnalysis(
  s3: S3Client,
  bucket: string,
  key: string,
  compute: () => Promise<Analysis>,
  writes?: Promise<void>[],
): Promise<Analysis> {
  const analysis = await compute();
  const write = s3
    .send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: analysisToJson(analysis),
        ContentType: 'application/json',
      }),
    )
    .then(
      () => undefined,
      (err: unknown) => console.warn(`[toonzap-model] analysis cache write failed: ${(err as Error).message}`),
    );
  if (writes) writes.push(write);
  else await write;
  return analysis;
}

export function modelError(res: http.ServerResponse, message: string): void {
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

export function sendJson(res: http.ServerResponse, status: number, obj: unknown): void {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function defaultS3(): S3Client {
  // Endpoint from AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL and region from AWS_REGION (SDK v3 reads them).
  return new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
}
