import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { CONTROL_STRUCTURE_MODEL_ID, GENERATIVE_PRESETS } from '../../domain/generative';
import { ITEM_ERRORS } from '../../domain/orders';
import { minuteWindowId } from '../../lambdas/lib/capacity';
import { capCounterId } from '../../lambdas/lib/caps';
import { PREVIEW_CAPACITY_WAIT_MS } from '../../lambdas/lib/previews';
import type { LocalRuntime } from '../../local/runtime';
import { type BedrockFaults, startRuntimeBehindBedrockFaults } from '../support/bedrock';
import { checkout, moderate, pay, tableClient, waitForGeneration } from '../support/orders';
import { type Api, photo, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * Generative styles through the local runtime: `3d` and `anime` are drawn by the Bedrock model (the local stand-in,
 * behind a fault-injecting proxy), the other styles by the engine, for previews and paid orders alike.
 */
type Thumbnail = { style: { id: string }; image: string | null; paused?: true; busy?: true };

describe('generative styles', () => {
  let runtime: LocalRuntime;
  let client: Api;
  let faults: BedrockFaults;
  let close: () => Promise<void>;
  let doc: DynamoDBDocumentClient;

  beforeAll(async () => {
    // Room in the model quota for every call here: the app paces itself to its configured 10 a minute by default.
    ({ runtime, client, faults, close } = await startRuntimeBehindBedrockFaults({
      paymentMode: 'simulated',
      bedrockRequestsPerMinute: 120,
    }));
    doc = tableClient(runtime);
  });
  afterAll(async () => {
    await close?.();
    doc?.destroy();
  });

  /** Asserts a body is Stable Image Control Structure's documented request for `style`; returns the sent image's size. */
  async function expectDocumentedBody(body: Record<string, unknown>, style: '3d' | 'anime') {
    const preset = GENERATIVE_PRESETS[style];
    expect(Object.keys(body).sort()).toEqual([
      'control_strength',
      'image',
      'negative_prompt',
      'output_format',
      'prompt',
      'seed',
      'style_preset',
    ]);
    expect(body).toMatchObject({
      prompt: preset.prompt,
      style_preset: preset.stylePreset,
      negative_prompt: preset.negativePrompt,
      control_strength: preset.controlStrength,
      output_format: 'png',
    });
    expect(Number.isInteger(body.seed) && (body.seed as number) >= 1 && (body.seed as number) <= 4_294_967_294).toBe(
      true,
    );
    expect(body.image).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const meta = await sharp(Buffer.from(body.image as string, 'base64')).metadata();
    expect(meta.format).toBe('png');
    return { width: meta.width!, height: meta.height! };
  }

  async function thumbnails(hash: string) {
    const job = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(job.status).toBe(200);
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    const res = await client.get(`/api/get-thumbnails/${hash}`);
    expect(res.status).toBe(200);
    return res.body as Thumbnail[];
  }

  async function buy(hash: string, styles: string[], email: string) {
    const order = await checkout(client, email, [hash], styles);
    await pay(runtime, order.session_id);
    return waitForGeneration(client, order.order_id, undefined, 120_000);
  }

  test('previews and a paid order of 3d and anime come from the model, with the documented request; previews are reused', async () => {
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    await moderate(client, [hash]); // makes the engine's previews in the same job, not the model's (seconds each)
    expect(faults.requests.filter((r) => r.style)).toEqual([]);
    const list = await thumbnails(hash);
    const previewCalls = faults.requests.filter((r) => r.style);
    expect(previewCalls.map((r) => r.style).sort()).toEqual(['3d', 'anime']);
    for (const r of previewCalls) {
      expect(r.modelId).toBe(`us.${CONTROL_STRUCTURE_MODEL_ID}`);
      const size = await expectDocumentedBody(r.body, r.style as '3d' | 'anime');
      expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(GENERATIVE_PRESETS[r.style as '3d'].previewSize);
    }
    // Every style has a preview; the generative ones are PNG without metadata, watermarked previews of the model's image.
    expect(
      list
        .filter((t) => t.image)
        .map((t) => t.style.id)
        .sort(),
    ).toEqual(['3d', 'anime', 'comic', 'oil-paint', 'pixel-art', 'pop-art', 'sketch', 'watercolor']);
    const png = Buffer.from(await (await fetch(list.find((t) => t.style.id === '3d')!.image!)).arrayBuffer());
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    // A second preview request for the same photo makes no new model call.
    const before = faults.requests.length;
    await thumbnails(hash);
    expect(faults.requests.length).toBe(before);

    const generation = await buy(hash, ['3d', 'anime', 'comic'], 'ai-buyer@example.com');
    expect(generation.status).toBe('completed');
    expect(generation.images.map((i) => i.styleId).sort()).toEqual(['3d', 'anime', 'comic']);
    const paid = faults.requests.slice(before);
    // comic is the engine's. (A call may be repeated: a transient network error is retried like throttling.)
    expect([...new Set(paid.map((r) => r.style))].sort()).toEqual(['3d', 'anime']);
    for (const r of paid) {
      const size = await expectDocumentedBody(r.body, r.style as '3d' | 'anime');
      expect(size).toEqual({ width: 512, height: 512 }); // the photo's own size (never enlarged)
      // Seed policy per-photo: the paid render starts from its preview's seed.
      expect(r.body.seed).toBe(previewCalls.find((p) => p.style === r.style)!.body.seed);
    }
    const output = Buffer.from(
      await (await fetch(generation.images.find((i) => i.styleId === 'anime')!.url)).arrayBuffer(),
    );
    const outMeta = await sharp(output).metadata();
    // The model answered at the photo's 512 px: enlarged to the paid size.
    expect(outMeta).toMatchObject({ format: 'png', width: 2048, height: 2048 });
    expect(outMeta.exif).toBeUndefined();
  });

  test('throttling is retried with backoff and the order completes', async () => {
    const hash = await uploadPhoto(client, photo('coffee.png'));
    await moderate(client, [hash]);
    await thumbnails(hash); // as on the style step: the previews exist before the order
    faults.throttle('3d', 2);
    const before = faults.calls('3d');
    const generation = await buy(hash, ['3d', 'sketch'], 'throttled@example.com');
    expect(generation.status).toBe('completed');
    expect(generation.images.map((i) => i.styleId).sort()).toEqual(['3d', 'sketch']);
    expect(generation.refund).toBeUndefined();
    expect(faults.calls('3d') - before).toBe(3); // two throttled, the third drew it
  });

  test('content filtered by the model: that item is refunded and shown, the others are delivered', async () => {
    const hash = await uploadPhoto(client, photo('chelsea.png'));
    await moderate(client, [hash]);
    await thumbnails(hash); // as on the style step: the previews exist before the order
    faults.filter('anime');
    const before = faults.calls('anime');
    const generation = await buy(hash, ['3d', 'anime', 'comic'], 'filtered@example.com');
    expect(generation.status).toBe('completed');
    expect(generation.images.map((i) => i.styleId).sort()).toEqual(['3d', 'comic']);
    expect(generation.failed).toEqual([
      expect.objectContaining({ imageHash: hash, styleId: 'anime', error: ITEM_ERRORS.render }),
    ]);
    expect(generation.refund).toMatchObject({ items: 1 });
    expect(generation.refund!.amount).toBeGreaterThan(0);
    expect(faults.calls('anime') - before).toBe(1); // not retried
  });

  test('a paid item is never drawn by another renderer than its preview', async () => {
    const hash = await uploadPhoto(client, photo('rocket.jpg'), 'image/jpeg');
    await moderate(client, [hash]);
    await thumbnails(hash); // as on the style step: the previews exist before the order
    // anime is still filtered (previous test): its refused preview is remembered, so a later visit asks no model.
    const animeCalls = faults.calls('anime');
    expect(animeCalls).toBeGreaterThan(0);
    await thumbnails(hash);
    expect(faults.calls('anime')).toBe(animeCalls);
    // As if the preview had been made before 3d became generative (an engine preview the customer saw).
    const table = runtime.env.IMAGES_TABLE;
    const rec = (await doc.send(new GetCommand({ TableName: table, Key: { image_hash: hash } }))).Item!;
    const previews = [...new Set([...(rec.previews ?? []), '3d'])];
    await doc.send(
      new PutCommand({
        TableName: table,
        Item: { ...rec, previews, preview_renderers: { ...rec.preview_renderers, '3d': 'engine' } },
      }),
    );
    const before = faults.calls('3d');
    const generation = await buy(hash, ['3d', 'comic'], 'switched@example.com');
    expect(generation.images.map((i) => i.styleId)).toEqual(['comic']);
    expect(generation.failed).toEqual([
      expect.objectContaining({ imageHash: hash, styleId: '3d', error: ITEM_ERRORS.render }),
    ]);
    expect(generation.refund).toMatchObject({ items: 1 });
    expect(faults.calls('3d')).toBe(before);
  });

  test('a busy minute: the preview waits, keeps its budget unit, is shown busy (not paused) and is made later', async () => {
    // Paid renders have taken the model's minutes (this one and the next three, so the test cannot outrun them).
    const model = `us.${CONTROL_STRUCTURE_MODEL_ID}`;
    const counters = runtime.env.COUNTERS_TABLE;
    const minutes = [0, 1, 2, 3].map((i) => minuteWindowId(model, Date.now() + i * 60_000));
    for (const id of minutes)
      await doc.send(new PutCommand({ TableName: counters, Item: { counter_id: id, count: 1_000 } }));
    const budget = async () =>
      Number(
        (
          await doc.send(
            new GetCommand({ TableName: counters, Key: { counter_id: capCounterId('generativePreviews', 'day') } }),
          )
        ).Item?.count ?? 0,
      );
    const spent = await budget();
    const hash = await uploadPhoto(client, photo('camera.png'));
    await moderate(client, [hash]);
    const before = faults.requests.length;
    const job = (await client.post('/api/process-thumbnail', { image_hash: hash })).body.job_id as string;
    // The job waits (the jobs machine retries CapacityBusy) rather than ending with the tiles paused.
    const jobs = runtime.env.JOBS_TABLE;
    const status = async () =>
      (await doc.send(new GetCommand({ TableName: jobs, Key: { job_id: job } }))).Item!.status as string;
    while ((await status()) === 'PENDING') await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await status()).toBe('STARTED');
    // Its wait is bounded from the job's creation: as if it had waited that long, the next retry ends it.
    const old = new Date(Date.now() - PREVIEW_CAPACITY_WAIT_MS - 1_000).toISOString();
    await doc.send(
      new UpdateCommand({
        TableName: jobs,
        Key: { job_id: job },
        UpdateExpression: 'SET created_at = :old',
        ExpressionAttributeValues: { ':old': old },
      }),
    );
    expect(await waitForJob(client, job, 90_000)).toBe('SUCCESS');
    const list = (await client.get(`/api/get-thumbnails/${hash}`)).body as Thumbnail[];
    expect(
      list
        .filter((t) => 'busy' in t)
        .map((t) => t.style.id)
        .sort(),
    ).toEqual(['3d', 'anime']);
    expect(list.filter((t) => 'paused' in t)).toEqual([]);
    expect(list.filter((t) => t.image).length).toBe(6);
    expect(faults.requests.length).toBe(before); // no model call
    expect(await budget()).toBe(spent); // every unit taken was given back

    // The minute passes: asked again, the previews are made and counted.
    for (const id of minutes) await doc.send(new DeleteCommand({ TableName: counters, Key: { counter_id: id } }));
    const again = await thumbnails(hash);
    // Both asked once (anime may still be filtered by an earlier test: then it is refused, not busy).
    expect(
      faults.requests
        .slice(before)
        .map((r) => r.style)
        .sort(),
    ).toEqual(['3d', 'anime']);
    expect(again.find((t) => t.style.id === '3d')?.image).toBeTruthy();
    expect(again.filter((t) => 'busy' in t)).toEqual([]);
    // A unit is kept for each preview made; one the model refused (anime, if filtered) was given back.
    const made = again.filter((t) => ['3d', 'anime'].includes(t.style.id) && t.image).length;
    expect(await budget()).toBe(spent + made);
  });

  test('past the daily preview budget, generative tiles are paused and ordering still works', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const limit = Number(runtime.env.GENERATIVE_PREVIEWS_PER_DAY);
    await doc.send(
      new PutCommand({
        TableName: runtime.env.COUNTERS_TABLE,
        Item: { counter_id: `generative-previews#${day}`, count: limit },
      }),
    );
    const hash = await uploadPhoto(client, photo('motorcycle_left.png'));
    const before = faults.requests.length;
    await moderate(client, [hash]);
    const list = await thumbnails(hash);
    expect(faults.requests.length).toBe(before); // no model call for a preview
    expect(
      list
        .filter((t) => t.paused)
        .map((t) => t.style.id)
        .sort(),
    ).toEqual(['3d', 'anime']);
    expect(list.filter((t) => t.image).length).toBe(6);
    const counter = await doc.send(
      new GetCommand({ TableName: runtime.env.COUNTERS_TABLE, Key: { counter_id: `generative-previews#${day}` } }),
    );
    expect(counter.Item?.count).toBe(limit);

    const generation = await buy(hash, ['3d'], 'paused@example.com');
    expect(generation.status).toBe('completed');
    expect(generation.images.map((i) => i.styleId)).toEqual(['3d']);
    expect(faults.calls('3d')).toBeGreaterThan(0);
  });
});
