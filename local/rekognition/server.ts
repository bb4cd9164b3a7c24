/**
 * Local stand-in for Amazon Rekognition's DetectModerationLabels (AWS JSON 1.1 protocol), as the app calls it
 * (lambdas/lib/moderation.ts): the handlers' RekognitionClient reaches it through AWS_ENDPOINT_URL_REKOGNITION.
 *   request : POST /  X-Amz-Target: RekognitionService.DetectModerationLabels
 *             {"Image": {"S3Object": {"Bucket", "Name", "Version"?}}, "MinConfidence"?: 0..100}
 *   200     : {"ModerationLabels": [{"Confidence", "Name", "ParentName", "TaxonomyLevel"}],
 *              "ModerationModelVersion": "local-nsfwjs-mobilenetv2", "ContentTypes": [{"Confidence", "Name"}]}
 *   error   : 4xx/5xx, header x-amzn-errortype: <Name>, {"__type", "Code", "Message", "message", "Logref"}: the SDK
 *             resolves <Name> to its exception class (InvalidImageFormatException, InvalidS3ObjectException, ...).
 * Signatures are not verified. Image.Bytes (the app never sends it) and other operations are refused.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { readBody } from '../../engine/http-body';
import { AwsError, type Running, serve } from '../serve';
import {
  classifyImage,
  DEFAULT_MIN_CONFIDENCE,
  MODERATION_MODEL_VERSION,
  ModerationInputError,
  mapScoresToContentTypes,
  mapScoresToModerationLabels,
} from './nsfw-model';

const TARGET = 'RekognitionService.DetectModerationLabels';
/** Rekognition's limit for an image in S3. */
export const MAX_S3_IMAGE = 15 * 1024 * 1024;
/** Largest request body read (the request names an object; it carries no image). */
const MAX_BODY = 64 * 1024;

export interface LocalRekognition extends Running {
  /** DetectModerationLabels requests received so far (tests count model calls with it). */
  calls(): number;
}

const invalidParameters = () => new AwsError('InvalidParameterException', 'Request has invalid parameters');
const tooLarge = () => new AwsError('ImageTooLargeException', 'Image size is too large.');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readS3Image(s3: S3Client, image: unknown): Promise<Buffer> {
  if (!isObject(image) || image.Bytes !== undefined || !isObject(image.S3Object)) throw invalidParameters();
  const { Bucket, Name, Version } = image.S3Object;
  if (typeof Bucket !== 'string' || !Bucket || typeof Name !== 'string' || !Name) throw invalidParameters();
  if (Version !== undefined && typeof Version !== 'string') throw invalidParameters();
  const res = await s3.send(new GetObjectCommand({ Bucket, Key: Name, VersionId: Version })).catch((err: Error) => {
    // What S3 refuses (no such key or bucket, no access) is the caller's object; anything else is Rekognition's fault.
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
    if (status >= 300 && status < 500)
      throw new AwsError(
        'InvalidS3ObjectException',
        'Unable to get object metadata from S3. Check object key, region and/or access permissions.',
      );
    throw new AwsError(
      'InternalServerError',
      `Could not read s3://${Bucket}/${Name}: ${err.name}: ${err.message}`,
      500,
    );
  });
  if ((res.ContentLength ?? 0) > MAX_S3_IMAGE) {
    (res.Body as { destroy?: () => void } | undefined)?.destroy?.();
    throw tooLarge();
  }
  return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
}

async function detectModerationLabels(input: unknown, s3: S3Client): Promise<Record<string, unknown>> {
  if (!isObject(input)) throw new AwsError('SerializationException', 'Request body must be a JSON object');
  const minConfidence = input.MinConfidence ?? DEFAULT_MIN_CONFIDENCE;
  if (typeof minConfidence !== 'number' || !(minConfidence >= 0 && minConfidence <= 100))
    throw new AwsError('InvalidParameterException', 'MinConfidence must be a number between 0 and 100');
  const bytes = await readS3Image(s3, input.Image);
  const { scores } = await classifyImage(bytes).catch((err: unknown) => {
    throw err instanceof ModerationInputError ? new AwsError(err.code, err.message) : err;
  });
  // No custom adapter (ProjectVersion) and no human review (HumanLoopConfig) here: the base model answers.
  return {
    ModerationLabels: mapScoresToModerationLabels(scores, minConfidence),
    ModerationModelVersion: MODERATION_MODEL_VERSION,
    ContentTypes: mapScoresToContentTypes(scores, minConfidence),
  };
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, s3: S3Client): Promise<void> {
  const requestId = randomUUID();
  const send = (status: number, body: unknown, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': requestId, ...headers });
    res.end(JSON.stringify(body));
  };
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const body = await readBody(req, MAX_BODY);
    if (req.method !== 'POST' || target !== TARGET)
      throw new AwsError('UnknownOperationException', `Operation ${target || '(none)'} is not supported here`);
    if (body === null) throw invalidParameters();
    let input: unknown;
    try {
      input = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch {
      throw new AwsError('SerializationException', 'Request body is not valid JSON');
    }
    send(200, await detectModerationLabels(input, s3));
  } catch (caught) {
    if (!(caught instanceof AwsError) || caught.status >= 500) console.error('[local-rekognition]', caught);
    const internal = () => new AwsError('InternalServerError', 'Internal server error', 500);
    const err = caught instanceof AwsError ? caught : internal();
    send(
      err.status,
      { __type: err.type, Code: err.type, Message: err.message, message: err.message, Logref: requestId },
      { 'x-amzn-errortype': err.type },
    );
  }
}

/** The stand-in on a free local port, reading the images it is named from `s3` (the local S3). */
export async function startLocalRekognition(s3: S3Client): Promise<LocalRekognition> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    if (req.headers['x-amz-target'] === TARGET) calls++;
    void handle(req, res, s3);
  });
  return { ...(await serve(server)), calls: () => calls };
}
