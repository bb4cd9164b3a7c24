import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CONTROL_STRUCTURE_MODEL_ID } from '../../domain/generative';
import { ITEM_ERRORS } from '../../domain/orders';
import { checkout, type Generation, moderate, pay, tableClient, waitForGeneration } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';

/**
 * A busy evening (issue 22): several visitors at once each order on their own photo while the renderers' account
 * limits are low. Paid items wait for capacity (the status page says queued) instead of being refunded: every image
 * paid for is delivered, none refunded; the wall time grows with the quota, not the refunds.
 */

const PHOTOS = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png', 'rocket.jpg'];

/** Each visitor uploads one of `photos`, passes moderation, orders `styles` and pays, all at once; returns their final generations. */
async function busyEvening(runtime: Awaited<ReturnType<typeof startTestRuntime>>, photos: string[], styles: string[]) {
  let queuedSeen = 0;
  const finals = await Promise.all(
    photos.map(async (file, i) => {
      const client = api(runtime.url); // each visitor their own browser
      const hash = await uploadPhoto(client, photo(file));
      await moderate(client, [hash]);
      const order = await checkout(client, `visitor${i}@example.com`, [hash], styles);
      await pay(runtime, order.session_id);
      return waitForGeneration(
        client,
        order.order_id,
        (g: Generation & { queued?: number }) => {
          queuedSeen = Math.max(queuedSeen, g.queued ?? 0);
          return g.status === 'completed' || g.status === 'failed';
        },
        280_000,
      );
    }),
  );
  return { finals, queuedSeen };
}

function expectAllDelivered(finals: Generation[], styles: string[]) {
  for (const g of finals) {
    expect(g.status).toBe('completed');
    expect(g.images.map((i) => i.styleId).sort()).toEqual([...styles].sort());
    expect(g.refund).toBeUndefined();
    expect(g.failed ?? []).toEqual([]);
  }
}

describe('a busy evening', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  /** The "account" of the stand-ins and the app's configuration, set alike (as an operator sets lib/config.ts). */
  const limits = (l: { rpm?: number; engine?: number }) => {
    runtime.bedrock.setRequestsPerMinute(l.rpm);
    if (l.rpm === undefined) delete process.env.BEDROCK_REQUESTS_PER_MINUTE;
    else process.env.BEDROCK_REQUESTS_PER_MINUTE = String(l.rpm);
    runtime.engine.setMaxConcurrency(l.engine ?? 10);
    process.env.ENGINE_MAX_CONCURRENCY = String(l.engine ?? 10);
  };

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime?.idle();
    await runtime?.close();
  });

  test('six visitors at once, Bedrock at 6 requests a minute, the engine at one at a time: all delivered, none refunded', async () => {
    limits({ rpm: 6, engine: 1 });
    const throttledBefore = runtime.engine.throttled();
    // Half order generative styles (each a model call, its preview another, at 6 a minute), half engine styles
    // (one render at a time, after the generative images' quality checks on the same engine).
    const generative = ['3d', 'anime'];
    const engine = ['sketch', 'comic'];
    const [models, renders] = await Promise.all([
      busyEvening(runtime, PHOTOS.slice(0, 3), generative),
      busyEvening(runtime, PHOTOS.slice(3, 6), engine),
    ]);
    expectAllDelivered(models.finals, generative);
    expectAllDelivered(renders.finals, engine);
    // Some items had to wait, and the status page said so.
    expect(Math.max(models.queuedSeen, renders.queuedSeen)).toBeGreaterThan(0);
    // Admission control holds every engine call to the endpoint's concurrency: SageMaker never had to refuse one.
    expect(runtime.engine.throttled()).toBe(throttledBefore);
  }, 300_000);

  test('an item still waiting at its order deadline is refunded then, and only then', async () => {
    limits({});
    // The model is not subscribed: the 3d item waits (queued), the engine's sketch is delivered meanwhile.
    runtime.bedrock.setUnsubscribed([CONTROL_STRUCTURE_MODEL_ID]);
    const client = api(runtime.url);
    const hash = await uploadPhoto(client, photo('grace_hopper.jpg'));
    await moderate(client, [hash]);
    const order = await checkout(client, 'late@example.com', [hash], ['3d', 'sketch']);
    await pay(runtime, order.session_id);
    const waiting = await waitForGeneration(
      client,
      order.order_id,
      (g: Generation & { queued?: number }) => (g.queued ?? 0) > 0 && g.images.length === 1,
      120_000,
    );
    expect(waiting.status).toBe('processing');
    expect(waiting.refund).toBeUndefined();
    // The deadline passes (the record says when it is): the next attempt gives the item up, and it is refunded.
    const doc = tableClient(runtime);
    try {
      await doc.send(
        new UpdateCommand({
          TableName: runtime.env.GENERATIONS_TABLE,
          Key: { generation_id: order.order_id },
          UpdateExpression: 'SET deadline_at = :past',
          ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
        }),
      );
    } finally {
      doc.destroy();
    }
    const done = await waitForGeneration(client, order.order_id, undefined, 120_000);
    expect(done.status).toBe('completed');
    expect(done.images.map((i) => i.styleId)).toEqual(['sketch']);
    expect(done.refund).toMatchObject({ items: 1 });
    expect(done.failed).toEqual([expect.objectContaining({ styleId: '3d', error: ITEM_ERRORS.deadline })]);
    runtime.bedrock.setUnsubscribed([]);
  }, 300_000);
});
