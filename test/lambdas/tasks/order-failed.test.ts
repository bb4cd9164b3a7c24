import '../../support/task-env';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import { ITEM_ERRORS, itemKey, refundFor } from '../../../domain/orders';
import { METRICS } from '../../../domain/wiring';
import { recordMetrics } from '../../support/metrics';

/**
 * lambdas/tasks/order-failed.ts, the order pipeline's top-level Catch: whatever broke, the customer keeps what was
 * delivered, gets the rest of the money back (only the rest, however often this runs) and is told once. Stripe is
 * the real SDK with its refund call replaced; DynamoDB and SES are SDK-level fakes.
 */
const stripe = new Stripe('sk_test_order_failed');
const refunds = jest.spyOn(stripe.refunds, 'create');
jest.mock('../../../lambdas/lib/payments', () => ({
  payments: async () => ({ stripe, webhookSecret: 'whsec_unused' }),
}));

import { handler } from '../../../lambdas/tasks/order-failed';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { lambdaContext } from '../../support/lambda-context';
import { ORDER_ID, PAYMENT_INTENT, PRICE, paidOrder, storedGeneration, storeOrder } from '../../support/tasks';

const tables = new FakeTables();
const ses = mockClient(SESv2Client);
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((c) => c.repeat(64));
/** What the Catch of "Generate images" hands on: the execution's state with the error at $.error. */
const input = {
  order_id: ORDER_ID,
  prepared: { allowed: [A, B, C, D], items: [] },
  error: {
    Error: 'States.TaskFailed',
    Cause: JSON.stringify({ errorType: 'Error', errorMessage: 'Generation table throttled' }),
  },
};

beforeEach(() => {
  tables.reset();
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'msg-1' });
  refunds.mockReset().mockImplementation(async () => ({ id: `re_${refunds.mock.calls.length}` }) as never);
  // One delivered, one failed by its Catch, two still pending when the pipeline broke.
  storeOrder(
    tables,
    paidOrder([A, B, C, D], ['comic'], {
      items: {
        [itemKey(A, 'comic')]: { status: 'done' },
        [itemKey(B, 'comic')]: { status: 'failed', error: ITEM_ERRORS.render },
      },
    }),
  );
});

test('the undelivered items are refunded and the customer told once; the delivered one is kept', async () => {
  const out = await handler(input, lambdaContext());
  expect(out).toEqual({
    status: 'completed',
    done: 1,
    failed: 3,
    refunded: refundFor(PRICE * 4, 4, 3),
    email: 'sent',
    reason: 'States.TaskFailed: Generation table throttled',
  });
  const g = storedGeneration(tables);
  for (const hash of [C, D])
    expect(g.items[itemKey(hash, 'comic')]).toMatchObject({
      status: 'failed',
      error: ITEM_ERRORS.stopped,
      error_detail: 'States.TaskFailed: Generation table throttled',
    });
  expect(g.items[itemKey(A, 'comic')].status).toBe('done');
  expect(g).toMatchObject({
    status: 'completed',
    email_sent_at: expect.any(String),
    refund: { amount: 210, items: 3 },
  });
  expect(refunds).toHaveBeenCalledTimes(1);
  expect(refunds.mock.calls[0]).toEqual([
    expect.objectContaining({ payment_intent: PAYMENT_INTENT, amount: 210 }),
    { idempotencyKey: `refund-${ORDER_ID}-3` },
  ]);
  const mail = ses.commandCalls(SendEmailCommand)[0].args[0].input;
  expect(mail.Destination?.ToAddresses).toEqual(['buyer@example.com']);
  expect(mail.Content?.Simple?.Body?.Text?.Data).toContain(
    '3 of 4 images could not be generated. $2.10 has been refunded',
  );
});

test('run again (its Retry, or the reconciler): no second refund, no second e-mail, the same outcome', async () => {
  const first = await handler(input, lambdaContext());
  const second = await handler(input, lambdaContext());
  expect(second).toEqual({ ...first, email: 'already-sent' });
  expect(refunds).toHaveBeenCalledTimes(1);
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
});

test('after a partial refund by order-finalize, only the rest is refunded, under a key of its own', async () => {
  tables.put('generations', {
    ...storedGeneration(tables),
    refund: { amount: 70, currency: 'usd', items: 1, refund_ids: ['re_finalize'], refunded_at: 'then' },
  });
  const metrics = recordMetrics();
  try {
    await handler(input, lambdaContext());
    expect(metrics.sum(METRICS.itemsRefunded)).toBe(2);
  } finally {
    metrics.restore();
  }
  expect(refunds.mock.calls[0]).toEqual([
    expect.objectContaining({ amount: 210 - 70, metadata: expect.objectContaining({ undelivered_items: '3' }) }),
    { idempotencyKey: `refund-${ORDER_ID}-3` },
  ]);
  expect(storedGeneration(tables).refund).toMatchObject({ amount: 210, items: 3, refund_ids: ['re_finalize', 're_1'] });
});

test('the e-mail cannot be sent: the order is still closed and refunded, the claim given back for a later send', async () => {
  ses.on(SendEmailCommand).rejects(awsError('MessageRejected', 'Email address is not verified.'));
  const out = await handler(input, lambdaContext());
  expect(out).toMatchObject({ status: 'completed', refunded: 210, email: 'not sent: Email address is not verified.' });
  expect(storedGeneration(tables).email_sent_at).toBeUndefined();
});

test('the refund fails: the task fails (its Retry runs it again), counted for the alarm, nobody told yet', async () => {
  refunds.mockRejectedValue(new Error('Stripe is down'));
  const metrics = recordMetrics();
  try {
    await expect(handler(input, lambdaContext())).rejects.toThrow('Stripe is down');
    expect(metrics.count(METRICS.refundFailures)).toBe(1);
  } finally {
    metrics.restore();
  }
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  expect(storedGeneration(tables).status).toBe('processing');
});

test('an order the pipeline broke before any item ran: everything is refunded, the failure told', async () => {
  storeOrder(tables, paidOrder([A], ['comic', 'sketch']));
  const out = await handler({ order_id: ORDER_ID, error: { Error: 'States.Timeout' } }, lambdaContext());
  expect(out).toMatchObject({
    status: 'failed',
    done: 0,
    failed: 2,
    refunded: PRICE * 2,
    reason: 'States.Timeout: States.Timeout',
  });
  const mail = ses.commandCalls(SendEmailCommand)[0].args[0].input;
  expect(mail.Content?.Simple?.Subject?.Data).toBe('ToonZap: we could not create your images');
});
