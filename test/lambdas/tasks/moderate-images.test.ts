import '../../support/task-env';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DetectModerationLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { ModelError } from '@aws-sdk/client-sagemaker-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { DEFAULT_GENERATIVE } from '../../../domain/generative';
import { STYLE_IDS } from '../../../domain/styles';
import { METRICS, mediaKey } from '../../../domain/wiring';
import { capCounterId } from '../../../lambdas/lib/caps';
import type { ImageRecord } from '../../../lambdas/lib/images';
import type { JobRecord } from '../../../lambdas/lib/jobs';
import { handler } from '../../../lambdas/tasks/moderate-images';
import { sha256 } from '../../fixtures/photos';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { FakeBucket } from '../../support/fake-s3';
import { recordMetrics } from '../../support/metrics';
import { BUCKET, FakeEngine, type Photo, photo, storeAllowed, storeUploaded } from '../../support/tasks';

/**
 * lambdas/tasks/moderate-images.ts, the jobs machine's "Moderate images": every photo's verdict (reused when it is
 * still bound to the stored object), and the first allowed photo's engine previews with it: rendered while the
 * first photo is moderated, kept only if it is allowed, deleted otherwise. Never a model call.
 */
const tables = new FakeTables();
const bucket = new FakeBucket(BUCKET);
const engine = new FakeEngine(bucket);
const rekognition = mockClient(RekognitionClient);
const bedrock = mockClient(BedrockRuntimeClient);
const JOB_ID = '5d1c9a7e-2b3f-4c8d-9e0a-1b2c3d4e5f60';
const ENGINE_STYLES = STYLE_IDS.filter((s) => !DEFAULT_GENERATIVE.includes(s));
const VIOLENCE = [{ Name: 'Graphic Violence', Confidence: 97.5, TaxonomyLevel: 2, ParentName: 'Violence' }];

let a: Photo;
let b: Photo;
beforeAll(async () => {
  [a, b] = await Promise.all([photo('#c08050'), photo('#5080c0')]);
});
/** The execution's input, as process-moderation starts it. */
const execution = (hashes: string[]) => ({ kind: 'moderation', job_id: JOB_ID, image_hashes: hashes });
const run = (...photos: Photo[]) => handler(execution(photos.map((x) => x.hash)));
const image = (x: Photo) => tables.get<ImageRecord>('images', x.hash)!;
const job = () => tables.get<JobRecord>('jobs', JOB_ID)!;
const previewKeys = (x: Photo) => bucket.keys(`previews/${x.hash}/`);
const rekognitionCalls = () => rekognition.commandCalls(DetectModerationLabelsCommand).length;

beforeEach(() => {
  tables.reset();
  bucket.reset();
  engine.reset();
  rekognition.reset();
  bedrock.reset();
  rekognition.on(DetectModerationLabelsCommand).resolves({ ModerationLabels: [] });
  tables.put('jobs', {
    job_id: JOB_ID,
    kind: 'moderation',
    status: 'PENDING',
    image_hashes: [],
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    expires_at: 0,
  } satisfies JobRecord);
});
afterEach(() => {
  // The style step's previews are the engine's: a model call takes seconds and would hold back the verdict.
  expect(bedrock.calls()).toHaveLength(0);
});

test('an allowed photo: verdict bound to its object, its engine previews recorded with it, the job SUCCESS', async () => {
  storeUploaded(tables, bucket, a);
  expect(await run(a)).toEqual({ allowed: [a.hash], refused: [] });
  expect(image(a)).toMatchObject({
    moderation: 'allowed',
    verified: true,
    width: a.width,
    height: a.height,
    object_etag: bucket.etag(mediaKey.upload(a.hash)),
    object_size: a.bytes.length,
  });
  expect(engine.renders).toHaveLength(1);
  expect(engine.renders[0]).toMatchObject({ kind: 'thumbnail', watermark: true });
  expect(engine.renders[0].outputs.map((o) => o.style)).toEqual(ENGINE_STYLES);
  expect(image(a).previews).toEqual(ENGINE_STYLES);
  expect(tables.get<{ count: number }>('counters', capCounterId('enginePreviews', 'day'))?.count).toBe(1);
  expect(job().status).toBe('SUCCESS');
});

test('run again: the verdict and the previews are reused, no Rekognition or engine call', async () => {
  storeUploaded(tables, bucket, a);
  const first = await run(a);
  expect(await run(a)).toEqual(first);
  expect(rekognitionCalls()).toBe(1);
  expect(engine.renders).toHaveLength(1);
});

test('a refused photo: rejected with its category, counted, and the previews drawn meanwhile deleted', async () => {
  storeUploaded(tables, bucket, a);
  rekognition.on(DetectModerationLabelsCommand).resolves({ ModerationLabels: VIOLENCE });
  const metrics = recordMetrics();
  try {
    expect(await run(a)).toEqual({ allowed: [], refused: [{ image_hash: a.hash, moderation: 'rejected' }] });
    expect(metrics.count(METRICS.moderationRefusals)).toBe(1);
  } finally {
    metrics.restore();
  }
  expect(image(a)).toMatchObject({ moderation: 'rejected', moderation_category: 'violence' });
  expect(engine.renders).toHaveLength(1);
  expect(previewKeys(a)).toEqual([]);
  expect(image(a).previews).toBeUndefined();
});

test("the first photo refused, the second allowed: the second's engine previews are made after the verdicts", async () => {
  const tiny = await photo('#808080', 200, 150);
  storeUploaded(tables, bucket, tiny);
  storeUploaded(tables, bucket, b);
  const out = await run(tiny, b);
  expect(out).toEqual({ allowed: [b.hash], refused: [{ image_hash: tiny.hash, moderation: 'invalid' }] });
  // Under the minimum size: refused from its header, deleted, never sent to Rekognition or drawn.
  expect(image(tiny).moderation_reasons).toEqual([expect.stringMatching(/^This photo is too small/)]);
  expect(bucket.has(mediaKey.upload(tiny.hash))).toBe(false);
  expect(rekognitionCalls()).toBe(1);
  expect(engine.renders.map((r) => r.input.key)).toEqual([mediaKey.upload(b.hash)]);
  expect(image(b).previews).toEqual(ENGINE_STYLES);
});

test('bytes that do not match their hash: invalid, deleted, never sent to Rekognition', async () => {
  storeUploaded(tables, bucket, a);
  bucket.put(mediaKey.upload(a.hash), b.bytes);
  expect(await run(a)).toEqual({ allowed: [], refused: [{ image_hash: a.hash, moderation: 'invalid' }] });
  expect(image(a)).toMatchObject({
    moderation: 'invalid',
    moderation_reasons: ['Uploaded bytes do not match the image hash.'],
  });
  expect(bucket.has(mediaKey.upload(a.hash))).toBe(false);
  expect(rekognitionCalls()).toBe(0);
  expect(previewKeys(a)).toEqual([]);
});

test('a file that is not an image: invalid and deleted, never sent to Rekognition', async () => {
  const bytes = Buffer.from('%PDF-1.4 not an image at all');
  const pdf = { bytes, hash: sha256(bytes), width: 0, height: 0 };
  storeUploaded(tables, bucket, pdf);
  expect(await run(pdf)).toEqual({ allowed: [], refused: [{ image_hash: pdf.hash, moderation: 'invalid' }] });
  expect(image(pdf)).toMatchObject({ moderation: 'invalid', moderation_reasons: ['Only JPG/PNG files are allowed'] });
  expect(bucket.has(mediaKey.upload(pdf.hash))).toBe(false);
  expect(rekognitionCalls()).toBe(0);
  expect(engine.renders).toEqual([]);
});

test('an image Rekognition cannot read: invalid and deleted; a verdict made before stays as it was', async () => {
  storeUploaded(tables, bucket, a);
  storeAllowed(tables, bucket, b);
  rekognition
    .on(DetectModerationLabelsCommand)
    .rejects(awsError('InvalidImageFormatException', 'Request has invalid image format'));
  expect(await run(b, a)).toEqual({ allowed: [b.hash], refused: [{ image_hash: a.hash, moderation: 'invalid' }] });
  expect(bucket.has(mediaKey.upload(a.hash))).toBe(false);
  expect(image(b).moderation).toBe('allowed');
});

test('Rekognition throttled: thrown for the Catch, nothing judged, and no preview of the unjudged photo is left', async () => {
  storeUploaded(tables, bucket, a);
  rekognition.on(DetectModerationLabelsCommand).rejects(awsError('ThrottlingException', 'Rate exceeded'));
  await expect(run(a)).rejects.toMatchObject({ name: 'ThrottlingException' });
  expect(image(a).moderation).toBeUndefined();
  expect(job().status).toBe('STARTED');
  // The render it started has ended, and left nothing of the unjudged photo stored.
  await engine.idle();
  expect(engine.renders).toHaveLength(1);
  expect(previewKeys(a)).toEqual([]);
});

test('the early previews fail: the verdict still stands and the job succeeds (the previews job makes them)', async () => {
  storeUploaded(tables, bucket, a);
  engine.failNext(new ModelError({ message: 'Received server error (500)', $metadata: {} }));
  expect(await run(a)).toEqual({ allowed: [a.hash], refused: [] });
  expect(image(a).previews).toBeUndefined();
  expect(tables.get<{ count: number }>('counters', capCounterId('enginePreviews', 'day'))?.count).toBe(0);
  expect(job().status).toBe('SUCCESS');
});
