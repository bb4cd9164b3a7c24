import '../../support/task-env';
import { BedrockRuntimeClient, InvokeModelCommand, ThrottlingException } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { GENERATIVE_PRESETS } from '../../../domain/generative';
import { PREVIEW_LONG_SIDE } from '../../../domain/image-format';
import { CAP_WINDOWS, mediaKey } from '../../../domain/wiring';
import { seedFor } from '../../../lambdas/lib/bedrock';
import { ENGINE, semaphoreId } from '../../../lambdas/lib/capacity';
import { capCounterId } from '../../../lambdas/lib/caps';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { settings } from '../../../lambdas/lib/settings';
import { handler } from '../../../lambdas/tasks/order-previews';
import { FakeTables } from '../../support/fake-dynamo';
import { FakeBucket } from '../../support/fake-s3';
import {
  BUCKET,
  FakeEngine,
  MODEL_ID,
  modelAnswer,
  modelRequest,
  ORDER_ID,
  type Photo,
  paidOrder,
  photo,
  png,
  replaceUpload,
  storeAllowed,
  storeOrder,
} from '../../support/tasks';

/**
 * lambdas/tasks/order-previews.ts, one iteration of the order pipeline's "Make previews" Map: watermarked previews
 * of the ordered styles the photo has none of (a preview the customer saw is never replaced), through the previews
 * path of the style step but outside the free caps. Best effort: the Map's Catch skips a photo that failed.
 */
const tables = new FakeTables();
const bucket = new FakeBucket(BUCKET);
const engine = new FakeEngine(bucket);
const bedrock = mockClient(BedrockRuntimeClient);

let p: Photo;
let other: Photo;
let drawn: Buffer;
beforeAll(async () => {
  [p, other, drawn] = await Promise.all([photo(), photo('#204060'), png(512, 410, '#40a060')]);
});
const image = () => tables.get<ImageRecord>('images', p.hash)!;
const modelCalls = () => bedrock.commandCalls(InvokeModelCommand).map((c) => c.args[0].input);

beforeEach(() => {
  tables.reset();
  bucket.reset();
  engine.reset();
  bedrock.reset();
  bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn));
  storeAllowed(tables, bucket, p, { previews: ['comic'], preview_renderers: { comic: 'engine' } });
  storeAllowed(tables, bucket, other);
  storeOrder(tables, paidOrder([p.hash, other.hash], ['comic', 'sketch', '3d']));
});

test("the photo's missing ordered styles: one engine call, one model call, recorded; no free cap taken", async () => {
  const out = await handler({ order_id: ORDER_ID, image_hash: p.hash });
  expect({ made: [...out.made].sort(), paused: out.paused }).toEqual({ made: ['3d', 'sketch'], paused: [] });
  expect(engine.renders).toEqual([
    {
      input: { bucket: BUCKET, key: mediaKey.upload(p.hash) },
      kind: 'thumbnail',
      size: PREVIEW_LONG_SIDE,
      watermark: true,
      outputs: [{ style: 'sketch', bucket: BUCKET, key: mediaKey.preview(p.hash, 'sketch') }],
    },
  ]);
  const [call] = modelCalls();
  expect(call.modelId).toBe(MODEL_ID);
  expect(modelRequest(call).seed).toBe(seedFor(GENERATIVE_PRESETS['3d'], p.hash, '3d'));
  const preview = await sharp(bucket.bytes(mediaKey.preview(p.hash, '3d'))).metadata();
  expect([preview.format, Math.max(preview.width!, preview.height!)]).toEqual(['png', PREVIEW_LONG_SIDE]);
  expect(image()).toMatchObject({
    previews: ['comic', expect.any(String), expect.any(String)],
    preview_renderers: { comic: 'engine', sketch: 'engine', '3d': `bedrock:${MODEL_ID}` },
  });
  // Paid for: the anonymous caps' counters are untouched; the engine slot came back.
  for (const cap of ['enginePreviews', 'generativePreviews'] as const)
    for (const window of CAP_WINDOWS) expect(tables.get('counters', capCounterId(cap, window))).toBeUndefined();
  expect(tables.get<{ count: number }>('counters', semaphoreId(ENGINE))?.count).toBe(0);
});

test('run again: everything is there, nothing is drawn', async () => {
  await handler({ order_id: ORDER_ID, image_hash: p.hash });
  expect(await handler({ order_id: ORDER_ID, image_hash: p.hash })).toEqual({ made: [], paused: [] });
  expect(engine.renders).toHaveLength(1);
  expect(modelCalls()).toHaveLength(1);
});

test('a preview made by another renderer is kept as the customer saw it, not redrawn', async () => {
  storeAllowed(tables, bucket, p, {
    previews: ['comic', 'sketch', '3d'],
    preview_renderers: { comic: 'engine', sketch: 'engine', '3d': 'engine' },
  });
  expect(await handler({ order_id: ORDER_ID, image_hash: p.hash })).toEqual({ made: [], paused: [] });
  expect(modelCalls()).toEqual([]);
});

test('the model refuses or is throttled: the engine previews are still made and the task succeeds', async () => {
  bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn, 'Filter reason: input image'));
  expect((await handler({ order_id: ORDER_ID, image_hash: p.hash })).made).toEqual(['sketch']);
  expect(image().previews_refused).toEqual({ '3d': `bedrock:${MODEL_ID}` });

  storeAllowed(tables, bucket, other);
  bedrock.on(InvokeModelCommand).rejects(new ThrottlingException({ message: 'Too many requests', $metadata: {} }));
  expect((await handler({ order_id: ORDER_ID, image_hash: other.hash })).made.sort()).toEqual(['comic', 'sketch']);
  expect(bucket.has(mediaKey.preview(other.hash, '3d'))).toBe(false);
});

test('no engine slot for previews: CapacityBusy (the Map skips the photo), the model preview still recorded', async () => {
  const limit = settings.engineMaxConcurrency;
  const holders = Object.fromEntries(Array.from({ length: limit }, (_, i) => [`paid:${i}`, Date.now()]));
  tables.put('counters', { counter_id: semaphoreId(ENGINE), count: limit, holders });
  await expect(handler({ order_id: ORDER_ID, image_hash: p.hash })).rejects.toMatchObject({ name: 'CapacityBusy' });
  expect(engine.renders).toEqual([]);
  expect(image().preview_renderers).toEqual({ comic: 'engine', '3d': `bedrock:${MODEL_ID}` });
});

test('a photo changed after its verdict: NotAllowed, nothing drawn, the object deleted', async () => {
  replaceUpload(bucket, p, other.bytes);
  await expect(handler({ order_id: ORDER_ID, image_hash: p.hash })).rejects.toMatchObject({ name: 'NotAllowed' });
  expect(engine.renders).toEqual([]);
  expect(modelCalls()).toEqual([]);
  expect(bucket.has(mediaKey.upload(p.hash))).toBe(false);
});

test('a generation that is gone: a plain error', async () => {
  tables.reset();
  await expect(handler({ order_id: ORDER_ID, image_hash: p.hash })).rejects.toThrow(`Generation ${ORDER_ID} not found`);
});
