import '../../support/task-env';
import Stripe from 'stripe';
import { ITEM_ERRORS, itemKey, refundFor } from '../../../domain/orders';
import { METRICS } from '../../../domain/wiring';
import { recordMetrics } from '../../support/metrics';

/**
 * lambdas/tasks/order-finalize.ts, the order pipeline's "Finalize order": every item still pending fails, what was
 * not delivered is refunded (only that, only once), and the generation gets its final status and the customer's
 * summary. Stripe is the real SDK with its refund call replaced; everything else is the SDK-level fakes.
 */
const stripe = new Stripe('sk_test_finalize');
const refunds = jest.spyOn(stripe.refunds, 'create');
jest.mock('../../../lambdas/lib/payments', () => ({
  payments: async () => ({ stripe, webhookSecret: 'whsec_unused' }),
}));

import type { GenerationItem } from '../../../lambdas/lib/generations';
import { handler } from '../../../lambdas/tasks/order-finalize';
import { FakeTables } from '../../support/fake-dynamo';
import { ORDER_ID, PAYMENT_INTENT, PRICE, paidOrder, storedGeneration, storeOrder } from '../../support/tasks';

const tables = new FakeTables();
const [A, B, C] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];
const done = { status: 'done' } as const;
const failed = (error: string = ITEM_ERRORS.render) => ({ status: 'failed', error }) as const;

function store(items: Record<string, Partial<GenerationItem>>, hashes = [A, B, C]) {
  storeOrder(tables, paidOrder(hashes, ['comic'], { items }));
}

beforeEach(() => {
  tables.reset();
  refunds.mockReset().mockImplementation(async () => ({ id: `re_${refunds.mock.calls.length}` }) as never);
});

test('everything delivered: completed, no refund, no notice', async () => {
  store({ [itemKey(A, 'comic')]: done, [itemKey(B, 'comic')]: done, [itemKey(C, 'comic')]: done });
  expect(await handler({ order_id: ORDER_ID })).toEqual({ status: 'completed', done: 3, failed: 0, refunded: 0 });
  expect(refunds).not.toHaveBeenCalled();
  const g = storedGeneration(tables);
  expect(g).toMatchObject({ status: 'completed', finished_at: expect.any(String) });
  expect(g.error).toBeUndefined();
  expect(g.refund).toBeUndefined();
});

test("a failed item is refunded its share, once, keyed by the count; the customer's summary says so", async () => {
  store({ [itemKey(A, 'comic')]: done, [itemKey(B, 'comic')]: failed(), [itemKey(C, 'comic')]: done });
  const metrics = recordMetrics();
  try {
    expect(await handler({ order_id: ORDER_ID })).toEqual({ status: 'completed', done: 2, failed: 1, refunded: 70 });
    expect(metrics.sum(METRICS.itemsRefunded)).toBe(1);
  } finally {
    metrics.restore();
  }
  expect(refunds).toHaveBeenCalledTimes(1);
  expect(refunds.mock.calls[0][0]).toMatchObject({
    payment_intent: PAYMENT_INTENT,
    amount: refundFor(PRICE * 3, 3, 1),
    metadata: { order_id: ORDER_ID, undelivered_items: '1' },
  });
  expect(refunds.mock.calls[0][1]).toEqual({ idempotencyKey: `refund-${ORDER_ID}-1` });
  expect(storedGeneration(tables)).toMatchObject({
    status: 'completed',
    error: '1 of 3 images could not be generated. $0.70 has been refunded to your card.',
    refund: { amount: 70, currency: 'usd', items: 1, refund_ids: ['re_1'] },
  });
  // Run again (the state's Retry after a lost answer): nothing more is refunded, the outcome is the same.
  expect(await handler({ order_id: ORDER_ID })).toEqual({ status: 'completed', done: 2, failed: 1, refunded: 70 });
  expect(refunds).toHaveBeenCalledTimes(1);
});

test('an item still pending after the Map fails and is refunded with the rest', async () => {
  store({ [itemKey(A, 'comic')]: done, [itemKey(B, 'comic')]: failed() });
  await handler({ order_id: ORDER_ID });
  const g = storedGeneration(tables);
  expect(g.items[itemKey(C, 'comic')]).toMatchObject({
    status: 'failed',
    error: ITEM_ERRORS.render,
    error_detail: 'still pending after the generation step',
  });
  expect(g.failed_count).toBe(2);
  expect(refunds.mock.calls[0][0]).toMatchObject({ amount: refundFor(PRICE * 3, 3, 2) });
  expect(refunds.mock.calls[0][1]).toEqual({ idempotencyKey: `refund-${ORDER_ID}-2` });
});

test('nothing delivered: failed, the whole total back; photos refused by moderation are told why', async () => {
  store({ [itemKey(A, 'comic')]: failed(ITEM_ERRORS.refused) }, [A]);
  expect(await handler({ order_id: ORDER_ID })).toEqual({ status: 'failed', done: 0, failed: 1, refunded: PRICE });
  expect(refunds.mock.calls[0][0]).toMatchObject({ amount: PRICE });
  expect(storedGeneration(tables)).toMatchObject({
    status: 'failed',
    error:
      'Your photos did not pass our safety check, so they were not processed. $0.70 has been refunded to your card.',
  });
});

test('a crash after Stripe refunded but before it was recorded: the rerun asks Stripe the very same request', async () => {
  store({ [itemKey(A, 'comic')]: done, [itemKey(B, 'comic')]: failed(), [itemKey(C, 'comic')]: done });
  tables.failNext('Update', (input) => /#refund\b/.test(String(input.UpdateExpression)), new Error('sandbox lost'));
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow('sandbox lost');
  await handler({ order_id: ORDER_ID });
  // Stripe answers a repeated idempotency key from its cache: one refund, however many requests.
  expect(refunds).toHaveBeenCalledTimes(2);
  expect(refunds.mock.calls[1]).toEqual(refunds.mock.calls[0]);
  expect(storedGeneration(tables).refund?.amount).toBe(70);
});

test('Stripe refuses the refund: the task fails (the order-failed path tries again), counted for the alarm', async () => {
  store({ [itemKey(A, 'comic')]: done, [itemKey(B, 'comic')]: failed() }, [A, B]);
  refunds.mockRejectedValue(
    Object.assign(new Error('An error occurred with our connection to Stripe.'), { type: 'StripeConnectionError' }),
  );
  const metrics = recordMetrics();
  try {
    await expect(handler({ order_id: ORDER_ID })).rejects.toThrow(/connection to Stripe/);
    expect(metrics.count(METRICS.refundFailures)).toBe(1);
  } finally {
    metrics.restore();
  }
  // Not marked finished: the final status waits for the refund.
  expect(storedGeneration(tables).status).toBe('processing');
  expect(storedGeneration(tables).refund).toBeUndefined();
});

test('a generation that is gone: a plain error', async () => {
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow(`Generation ${ORDER_ID} not found`);
  expect(refunds).not.toHaveBeenCalled();
});
