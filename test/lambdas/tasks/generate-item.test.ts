import '../../support/task-env';
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  InvokeModelCommand,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { ModelError } from '@aws-sdk/client-sagemaker-runtime';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { CONTROL_STRUCTURE_MODEL_ID, FAST_UPSCALE_MODEL_ID, GENERATIVE_PRESETS } from '../../../domain/generative';
import { PAID_LONG_SIDE } from '../../../domain/image-format';
import { ITEM_ERRORS, itemKey } from '../../../domain/orders';
import { SHARE_CARD } from '../../../domain/ownership';
import { ENGINE_ERRORS, ENV, GENERATIVE_ERRORS, GENERATIVE_TRIES, METRICS, mediaKey } from '../../../domain/wiring';
import { seedFor } from '../../../lambdas/lib/bedrock';
import { ENGINE, semaphoreId } from '../../../lambdas/lib/capacity';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { settings } from '../../../lambdas/lib/settings';
import { handler } from '../../../lambdas/tasks/generate-item';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { FakeBucket } from '../../support/fake-s3';
import { recordMetrics } from '../../support/metrics';
import {
  BUCKET,
  FakeEngine,
  MODEL_ID,
  modelAnswer,
  modelRequest,
  ORDER_ID,
  PASSED,
  type Photo,
  paidOrder,
  photo,
  png,
  replaceUpload,
  storeAllowed,
  storedGeneration,
  storeOrder,
  TASK_ENV,
} from '../../support/tasks';

/**
 * lambdas/tasks/generate-item.ts, one iteration of "Generate images" (lib/order-pipeline.ts): one paid image drawn by
 * its style's renderer, recorded and delivered once. Errors are thrown by the names the state's Retry and Catch
 * match: what may pass is waited out (the item shows queued) until the order's deadline, when it fails; what never
 * passes fails the item for its refund. A re-run after a crash renders nothing twice and never asks the model
 * twice for an image it already has. The engine is a SageMaker stub that writes its outputs; Bedrock answers canned
 * bodies.
 */
const tables = new FakeTables();
const bucket = new FakeBucket(BUCKET);
const engine = new FakeEngine(bucket);
const bedrock = mockClient(BedrockRuntimeClient);

let p: Photo;
/** What the model draws: smaller than the paid size, so it is enlarged before the check. */
let drawn: Buffer;
beforeAll(async () => {
  [p, drawn] = await Promise.all([photo(), png(200, 100, '#40a060')]);
});

const item = (style: string) => ({ order_id: ORDER_ID, image_hash: p.hash, style });
const output = (style: string) => mediaKey.output(ORDER_ID, p.hash, style);
const stored = (style: string) => storedGeneration(tables).items[itemKey(p.hash, style)];
const modelCalls = () => bedrock.commandCalls(InvokeModelCommand).map((c) => c.args[0].input);
const engineSlots = () => tables.get<{ count: number; holders: object }>('counters', semaphoreId(ENGINE));
/** The error a run threw (by name, as the state machine matches it). */
const failure = (style: string) =>
  handler(item(style)).then(
    (out) => {
      throw new Error(`expected a failure, got ${JSON.stringify(out)}`);
    },
    (err: Error) => err,
  );

beforeEach(() => {
  tables.reset();
  bucket.reset();
  engine.reset();
  bedrock.reset();
  bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn));
  // Allowed, with previews by the renderers that draw the styles now (the model for 3d).
  storeAllowed(tables, bucket, p, {
    previews: ['comic', '3d'],
    preview_renderers: { comic: 'engine', '3d': `bedrock:${MODEL_ID}` },
  });
  storeOrder(tables, paidOrder([p.hash], ['comic', '3d']));
});

describe('an engine style', () => {
  test('rendered at the paid size without watermark, recorded, delivered with its share card, counted', async () => {
    const metrics = recordMetrics();
    try {
      expect(await handler(item('comic'))).toEqual({ rendered: true });
      expect(metrics.count(METRICS.imagesDelivered)).toBe(1);
    } finally {
      metrics.restore();
    }
    expect(engine.renders).toEqual([
      {
        input: { bucket: BUCKET, key: mediaKey.upload(p.hash) },
        kind: 'image',
        size: PAID_LONG_SIDE,
        watermark: false,
        outputs: [{ style: 'comic', bucket: BUCKET, key: output('comic') }],
      },
    ]);
    expect(stored('comic')).toMatchObject({ status: 'done', rendered_at: expect.any(String) });
    expect(storedGeneration(tables).done_count).toBe(1);
    const shareId = storedGeneration(tables).share_ids![p.hash];
    const card = await sharp(bucket.bytes(mediaKey.shareCard(shareId, 'comic'))).metadata();
    expect([card.format, card.width, card.height]).toEqual(['jpeg', SHARE_CARD.width, SHARE_CARD.height]);
    // The engine slot was held for the render only.
    expect(engineSlots()).toEqual({ counter_id: semaphoreId(ENGINE), count: 0, holders: {} });
    expect(modelCalls()).toEqual([]);
  });

  test('an item no longer pending is skipped: nothing rendered, nothing written', async () => {
    storeOrder(tables, paidOrder([p.hash], ['comic'], { items: { [itemKey(p.hash, 'comic')]: { status: 'failed' } } }));
    expect(await handler(item('comic'))).toEqual({ skipped: 'failed' });
    expect(engine.renders).toEqual([]);
    expect(tables.stub.commandCalls(UpdateCommand)).toEqual([]);
  });

  test('a crash between recording the render and delivering it: the re-run delivers without rendering again', async () => {
    const delivered = (input: Record<string, unknown>) =>
      Object.values(input.ExpressionAttributeValues ?? {}).includes('done');
    tables.failNext('Update', delivered, new Error('sandbox lost'));
    await expect(handler(item('comic'))).rejects.toThrow('sandbox lost');
    expect(stored('comic')).toMatchObject({ status: 'pending', rendered_at: expect.any(String) });
    expect(await handler(item('comic'))).toEqual({ rendered: false });
    expect(engine.renders).toHaveLength(1);
    expect(storedGeneration(tables)).toMatchObject({ done_count: 1 });
    expect(await handler(item('comic'))).toEqual({ skipped: 'done' });
  });

  test('a photo changed after its verdict is never rendered: the item fails as refused, the object deleted', async () => {
    replaceUpload(bucket, p, await png(300, 300, '#ffffff'));
    expect(await handler(item('comic'))).toEqual({
      refused: 'The stored photo changed after it was checked; it was removed.',
    });
    expect(engine.renders).toEqual([]);
    expect(bucket.has(mediaKey.upload(p.hash))).toBe(false);
    expect(stored('comic')).toMatchObject({ status: 'failed', error: ITEM_ERRORS.refused });
  });

  test('no engine slot: CapacityBusy, the item shows queued (once); at the deadline it fails instead', async () => {
    const limit = settings.engineMaxConcurrency;
    const holders = Object.fromEntries(Array.from({ length: limit }, (_, i) => [`other:${i}`, Date.now()]));
    tables.put('counters', { counter_id: semaphoreId(ENGINE), count: limit, holders });
    expect(await failure('comic')).toMatchObject({ name: 'CapacityBusy' });
    const queuedAt = stored('comic').queued_at;
    expect(queuedAt).toEqual(expect.any(String));
    expect(await failure('comic')).toMatchObject({ name: 'CapacityBusy' });
    expect(stored('comic').queued_at).toBe(queuedAt);
    expect(engine.renders).toEqual([]);

    tables.put('generations', { ...storedGeneration(tables), deadline_at: new Date(Date.now() - 1000).toISOString() });
    expect(await handler(item('comic'))).toEqual({ deadline: 'CapacityBusy: No engine capacity for comic now' });
    expect(stored('comic')).toMatchObject({ status: 'failed', error: ITEM_ERRORS.deadline });
  });

  test('a throttled endpoint is waited out (queued); a model error is retried soon (not queued); the slot comes back', async () => {
    engine.failNext(awsError('ThrottlingException', 'Rate exceeded'));
    expect(await failure('comic')).toMatchObject({ name: ENGINE_ERRORS.throttled });
    expect(stored('comic').queued_at).toEqual(expect.any(String));

    storeOrder(tables, paidOrder([p.hash], ['comic']));
    engine.failNext(new ModelError({ message: 'Received server error (500) from primary', $metadata: {} }));
    expect(await failure('comic')).toMatchObject({ name: ENGINE_ERRORS.modelError });
    expect(stored('comic')).toMatchObject({ status: 'pending' });
    expect(stored('comic').queued_at).toBeUndefined();
    expect(engineSlots()?.count).toBe(0);
    // The retry renders it.
    expect(await handler(item('comic'))).toEqual({ rendered: true });
  });
});

describe('a generative style', () => {
  const preset = GENERATIVE_PRESETS['3d'];

  test('one model call with the preview seed, the image enlarged to the paid size, checked, delivered', async () => {
    expect(await handler(item('3d'))).toEqual({ rendered: true });
    const [call] = modelCalls();
    expect(call.modelId).toBe(MODEL_ID);
    const body = modelRequest(call);
    expect(body).toMatchObject({
      prompt: preset.prompt,
      negative_prompt: preset.negativePrompt,
      control_strength: preset.controlStrength,
      style_preset: preset.stylePreset,
      seed: seedFor(preset, p.hash, '3d'),
      output_format: 'png',
    });
    // The photo as stored (smaller than the style's input size: never enlarged).
    const sent = await sharp(Buffer.from(body.image as string, 'base64')).metadata();
    expect([sent.width, sent.height]).toEqual([p.width, p.height]);
    const out = await sharp(bucket.bytes(output('3d'))).metadata();
    expect([out.format, out.width, out.height]).toEqual(['png', PAID_LONG_SIDE, PAID_LONG_SIDE / 2]);
    expect(engine.checks).toEqual([
      {
        op: 'check',
        input: { bucket: BUCKET, key: mediaKey.upload(p.hash) },
        output: { bucket: BUCKET, key: output('3d') },
      },
    ]);
    expect(stored('3d')).toMatchObject({ status: 'done', rendered_at: expect.any(String) });
  });

  test('a crash before the image was recorded: the re-run checks the stored image and never asks the model again', async () => {
    const rendered = (input: Record<string, unknown>) => String(input.UpdateExpression).includes('#rendered_at');
    tables.failNext('Update', rendered, new Error('sandbox lost'));
    await expect(handler(item('3d'))).rejects.toThrow('sandbox lost');
    expect(await handler(item('3d'))).toEqual({ rendered: true });
    expect(modelCalls()).toHaveLength(1);
    expect(engine.checks).toHaveLength(2);
    expect(stored('3d').status).toBe('done');
  });

  test('the check finds no engine slot: CapacityBusy, the image kept; the re-run checks it with no model call', async () => {
    const limit = settings.engineMaxConcurrency;
    const holders = Object.fromEntries(Array.from({ length: limit }, (_, i) => [`other:${i}`, Date.now()]));
    tables.put('counters', { counter_id: semaphoreId(ENGINE), count: limit, holders });
    expect(await failure('3d')).toMatchObject({ name: 'CapacityBusy' });
    expect(bucket.has(output('3d'))).toBe(true);
    tables.put('counters', { counter_id: semaphoreId(ENGINE), count: 0, holders: {} });
    expect(await handler(item('3d'))).toEqual({ rendered: true });
    expect(modelCalls()).toHaveLength(1);
  });

  test('a preview drawn by another renderer: RendererChanged, and the model is never called', async () => {
    tables.put('images', { ...tables.get<ImageRecord>('images', p.hash)!, preview_renderers: { '3d': 'engine' } });
    expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.rendererChanged });
    expect(modelCalls()).toEqual([]);
    expect(engine.renders).toEqual([]);
    expect(stored('3d').status).toBe('pending'); // failed by the Catch (item-failed), then refunded
  });

  test('throttled and misconfigured are waited out (queued, the latter alarmed); a filtered image fails for good', async () => {
    const metrics = recordMetrics();
    try {
      bedrock.on(InvokeModelCommand).rejects(new ThrottlingException({ message: 'Too many requests', $metadata: {} }));
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.throttled });
      expect(stored('3d').queued_at).toEqual(expect.any(String));

      bedrock
        .on(InvokeModelCommand)
        .rejects(new AccessDeniedException({ message: "You don't have access to the model", $metadata: {} }));
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.misconfigured });
      expect(metrics.count(METRICS.modelMisconfigured)).toBe(1);

      storeOrder(tables, paidOrder([p.hash], ['3d']));
      bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn, 'Filter reason: output image'));
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.refused });
      expect(stored('3d').queued_at).toBeUndefined();
    } finally {
      metrics.restore();
    }
    expect(bucket.has(output('3d'))).toBe(false);
    expect(stored('3d').status).toBe('pending');
  });

  test('a model the account may not call waits (no refund, nothing refused) and is drawn once the operator fixes it', async () => {
    // Configured by the plain foundation-model id, which Bedrock serves only through an inference profile.
    const styles = JSON.parse(TASK_ENV[ENV.generativeStyles]) as Record<string, { modelId: string }>;
    const plain = { ...styles, '3d': { ...styles['3d'], modelId: CONTROL_STRUCTURE_MODEL_ID } };
    process.env[ENV.generativeStyles] = JSON.stringify(plain);
    tables.put('images', { ...tables.get<ImageRecord>('images', p.hash)!, previews: ['comic'] });
    bedrock.on(InvokeModelCommand, { modelId: CONTROL_STRUCTURE_MODEL_ID }).rejects(
      new ValidationException({
        message:
          "Invocation of model ID stability.stable-image-control-structure-v1:0 with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model.",
        $metadata: {},
      }),
    );
    try {
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.misconfigured });
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.misconfigured });
      expect(stored('3d')).toMatchObject({ status: 'pending', queued_at: expect.any(String) });
      expect(storedGeneration(tables).refund).toBeUndefined();
      expect(tables.get<ImageRecord>('images', p.hash)!.previews_refused).toBeUndefined();
    } finally {
      // The operator names the inference profile, as the error says: the next retry draws it through the profile.
      process.env[ENV.generativeStyles] = TASK_ENV[ENV.generativeStyles];
    }
    expect(await handler(item('3d'))).toEqual({ rendered: true });
    expect(modelCalls().map((c) => c.modelId)).toEqual([
      CONTROL_STRUCTURE_MODEL_ID,
      CONTROL_STRUCTURE_MODEL_ID,
      MODEL_ID,
    ]);
  });

  describe('with the Bedrock upscale service set', () => {
    const upscaler = `us.${FAST_UPSCALE_MODEL_ID}`;
    beforeEach(() => {
      process.env[ENV.bedrockUpscaleModelId] = upscaler;
    });
    afterEach(() => {
      delete process.env[ENV.bedrockUpscaleModelId];
    });
    const delivered = async () => {
      const out = await sharp(bucket.bytes(output('3d'))).metadata();
      return [out.width, out.height];
    };

    test('a small model image is enlarged by the service, once, to exactly the paid long side', async () => {
      // Fast Upscale answers four times the size it is sent.
      bedrock.on(InvokeModelCommand, { modelId: upscaler }).callsFake(async (input) => {
        const sent = await sharp(Buffer.from(modelRequest(input).image as string, 'base64')).metadata();
        return modelAnswer(await png(sent.width! * 4, sent.height! * 4, '#40a060'));
      });
      expect(await handler(item('3d'))).toEqual({ rendered: true });
      const upscale = modelCalls().filter((c) => c.modelId === upscaler);
      expect(upscale.map((c) => Object.keys(modelRequest(c)).sort())).toEqual([['image', 'output_format']]);
      expect(await delivered()).toEqual([PAID_LONG_SIDE, PAID_LONG_SIDE / 2]);
    });

    test('the account not subscribed to it: lanczos3 enlarges, counted, and the image is delivered', async () => {
      bedrock
        .on(InvokeModelCommand, { modelId: upscaler })
        .rejects(new AccessDeniedException({ message: 'You are not subscribed to this model', $metadata: {} }));
      const metrics = recordMetrics();
      try {
        expect(await handler(item('3d'))).toEqual({ rendered: true });
        expect(metrics.count(METRICS.upscaleFallbacks)).toBe(1);
      } finally {
        metrics.restore();
      }
      expect(await delivered()).toEqual([PAID_LONG_SIDE, PAID_LONG_SIDE / 2]);
      expect(stored('3d').status).toBe('done');
    });
  });

  test(`a quality failure is asked again with a new seed, ${GENERATIVE_TRIES} tries in all, then the item fails with its reason`, async () => {
    const reason = 'The image came out blank.';
    engine.verdict = { ok: false, check: 'contrast', reason, edgeCorrelation: 0.1, contrast: 2, ms: 3 };
    for (let attempt = 0; attempt < GENERATIVE_TRIES - 1; attempt++) {
      expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.qualityRetry, message: reason });
      expect(bucket.has(output('3d'))).toBe(false); // the failed image is deleted
      expect(stored('3d')).toMatchObject({ status: 'pending', quality_tries: attempt + 1 });
    }
    expect(await handler(item('3d'))).toEqual({ quality: `${reason} (${GENERATIVE_TRIES} tries)` });
    expect(modelCalls().map((c) => modelRequest(c).seed)).toEqual(
      Array.from({ length: GENERATIVE_TRIES }, (_, attempt) => seedFor(preset, p.hash, '3d', attempt)),
    );
    expect(new Set(modelCalls().map((c) => modelRequest(c).seed)).size).toBe(GENERATIVE_TRIES);
    expect(stored('3d')).toMatchObject({ status: 'failed', error: ITEM_ERRORS.quality });
  });

  test('one failed try: asked again with the next seed, and the image that passes is delivered', async () => {
    engine.verdict = {
      ok: false,
      check: 'faces',
      reason: 'A face was lost.',
      edgeCorrelation: 0.5,
      contrast: 40,
      ms: 3,
    };
    expect(await failure('3d')).toMatchObject({ name: GENERATIVE_ERRORS.qualityRetry });
    engine.verdict = PASSED;
    expect(await handler(item('3d'))).toEqual({ rendered: true });
    expect(modelCalls().map((c) => modelRequest(c).seed)).toEqual([
      seedFor(preset, p.hash, '3d', 0),
      seedFor(preset, p.hash, '3d', 1),
    ]);
    expect(stored('3d')).toMatchObject({ status: 'done', quality_tries: 1 });
    const out = await sharp(bucket.bytes(output('3d'))).metadata();
    expect(Math.max(out.width!, out.height!)).toBe(PAID_LONG_SIDE);
  });

  test('the last try losing the face fails with the likeness reason', async () => {
    storeOrder(
      tables,
      paidOrder([p.hash], ['3d'], { items: { [itemKey(p.hash, '3d')]: { quality_tries: GENERATIVE_TRIES - 1 } } }),
    );
    const reason = 'A face of the photo is not recognisable in the image.';
    engine.verdict = { ok: false, check: 'faces', reason, edgeCorrelation: 0.5, contrast: 40, ms: 3 };
    expect(await handler(item('3d'))).toEqual({ quality: `${reason} (${GENERATIVE_TRIES} tries)` });
    expect(modelRequest(modelCalls()[0]).seed).toBe(seedFor(preset, p.hash, '3d', GENERATIVE_TRIES - 1));
    expect(stored('3d')).toMatchObject({ status: 'failed', error: ITEM_ERRORS.faces });
  });
});

test('an item that is not part of the order: a plain error', async () => {
  await expect(handler({ order_id: ORDER_ID, image_hash: p.hash, style: 'sketch' })).rejects.toThrow(
    `Item ${p.hash}:sketch is not part of order ${ORDER_ID}`,
  );
});
