import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import { METRICS } from '../../../domain/wiring';
import type { OrderRecord } from '../../../lambdas/lib/orders';
import { startTables } from '../../support/dynamo';
import { lambdaContext } from '../../support/lambda-context';
import { recordMetrics } from '../../support/metrics';

/**
 * POST /api/stripe-webhook and the reconciler: a paid session fulfils only the order it was made for (its id stored
 * on the order, its amount the order's total); a dispute is recorded on the order its payment paid, counted; each
 * event is handled once. The events table is dynalite (the local DynamoDB: the idempotency records as DynamoDB keeps
 * them); the other tables and Step Functions are aws-sdk-client-mock stand-ins; Stripe is the real SDK (signatures)
 * with its two outgoing calls replaced.
 */
const SECRET = 'whsec_test_handler';
const stripe = new Stripe('sk_test_handler');
const refunds = jest.spyOn(stripe.refunds, 'create');
const paymentIntents = jest.spyOn(stripe.paymentIntents, 'retrieve');
jest.mock('../../../lambdas/lib/payments', () => ({
  payments: async () => ({ stripe, webhookSecret: SECRET }),
}));

import { reconcileSession } from '../../../lambdas/lib/reconciler';
import { handler } from '../../../lambdas/routes/stripe-webhook';
import { httpEvent } from '../../support/http-event';

const ddb = mockClient(DynamoDBDocumentClient);
const sfn = mockClient(SFNClient);
const ORDER_ID = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:orders';

const order = (over: Partial<OrderRecord> = {}): OrderRecord => ({
  order_id: ORDER_ID,
  status: 'created',
  email: 'buyer@example.com',
  hashes: ['a'.repeat(64)],
  styles: ['anime'],
  generations: 1,
  price_per_generation: 70,
  original_price: 70,
  discount: 0,
  total: 70,
  currency: 'usd',
  created_at: new Date().toISOString(),
  session_expires_at: 0,
  session_id: 'cs_test_own',
  ...over,
});

/** A paid (or expired) Checkout Session naming the order, as the webhook receives it. */
const session = (id: string, over: Partial<Stripe.Checkout.Session> = {}) =>
  ({
    id,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 70,
    currency: 'usd',
    client_reference_id: ORDER_ID,
    metadata: { order_id: ORDER_ID },
    payment_intent: `pi_of_${id}`,
    ...over,
  }) as Stripe.Checkout.Session;

let stored: OrderRecord;
let eventSeq = 0;

/** Delivers an event (a new one unless `id` names one), in an invocation with `context`'s time left. */
async function deliver(type: string, object: unknown, { id = `evt_${++eventSeq}`, context = lambdaContext() } = {}) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const res = await handler(
    httpEvent('POST /api/stripe-webhook', { headers: { 'stripe-signature': signature }, body: payload }),
    context,
  );
  return { status: res.statusCode, body: JSON.parse(res.body ?? '{}') };
}

let tables: Awaited<ReturnType<typeof startTables>>;
beforeAll(async () => {
  tables = await startTables(['events']);
});
afterAll(() => tables?.close());

/** The order updates the handler sent, as their SET clauses. */
const orderUpdates = () =>
  ddb
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => i.TableName === 'orders');

beforeEach(() => {
  Object.assign(process.env, {
    PAYMENT_MODE: 'stripe',
    ORDERS_TABLE: 'orders',
    GENERATIONS_TABLE: 'generations',
    SHARES_TABLE: 'shares',
    ORDER_MACHINE_ARN: MACHINE,
  });
  delete process.env.ORIGIN_VERIFY_SECRET;
  ddb.reset();
  sfn.reset();
  refunds.mockReset().mockResolvedValue({ id: 're_1' } as Stripe.Response<Stripe.Refund>);
  paymentIntents.mockReset();
  stored = order();
  ddb.on(GetCommand, { TableName: 'orders' }).callsFake(async () => ({ Item: stored }));
  ddb.on(GetCommand, { TableName: 'generations' }).resolves({});
  ddb.on(PutCommand).resolves({});
  // the order's share links, written with its generation
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  sfn.on(StartExecutionCommand).resolves({ executionArn: `${MACHINE}:${ORDER_ID}` });
});

describe('a paid session fulfils only its own order', () => {
  test("the order's own session, at the order's total: paid, pipeline started", async () => {
    const res = await deliver('checkout.session.completed', session('cs_test_own'));
    expect(res).toEqual({ status: 200, body: { received: true, outcome: 'order paid, generation started' } });
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
    expect(refunds).not.toHaveBeenCalled();
  });

  test('another session naming the order (same amount) does not fulfil it: refunded whole, the order untouched', async () => {
    const res = await deliver('checkout.session.completed', session('cs_test_payment_link'));
    expect(res.body.outcome).toBe("refunded: not the order's session");
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
    expect(orderUpdates()).toEqual([]);
    expect(ddb.commandCalls(PutCommand, { TableName: 'generations' })).toHaveLength(0);
    expect(refunds).toHaveBeenCalledTimes(1);
    expect(refunds.mock.calls[0][0]).toMatchObject({ payment_intent: 'pi_of_cs_test_payment_link' });
    expect(refunds.mock.calls[0][1]).toEqual({ idempotencyKey: 'foreign-cs_test_payment_link' });
    // The order's own session is paid afterwards: it is fulfilled as if nothing had happened.
    expect((await deliver('checkout.session.completed', session('cs_test_own'))).body.outcome).toBe(
      'order paid, generation started',
    );
  });

  test('an order that never stored its session is paid by no session', async () => {
    stored = order({ session_id: undefined });
    const res = await deliver('checkout.session.completed', session('cs_test_own'));
    expect(res.body.outcome).toBe("refunded: not the order's session");
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });

  test("the order's own session paid with another amount or currency: refunded, the order ends refunded", async () => {
    for (const over of [{ amount_total: 69 }, { currency: 'eur' }]) {
      ddb.resetHistory();
      refunds.mockClear();
      const res = await deliver('checkout.session.completed', session('cs_test_own', over));
      expect(res.body.outcome).toBe('refunded: amount mismatch');
      expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
      expect(refunds).toHaveBeenCalledTimes(1);
      expect(orderUpdates().map((u) => u.ExpressionAttributeValues)).toEqual([
        expect.objectContaining({ ':v0': 'refunded' }),
      ]);
    }
  });

  test('a redelivery after the idempotency key expired finds the payment refunded already: done, not retried', async () => {
    refunds.mockRejectedValue(
      Object.assign(new Error('Charge ch_1 has already been refunded.'), { code: 'charge_already_refunded' }),
    );
    const res = await deliver('checkout.session.completed', session('cs_test_other'));
    expect(res).toEqual({ status: 200, body: { received: true, outcome: "refunded: not the order's session" } });
  });

  test("another session's expiry does not expire the order", async () => {
    const res = await deliver('checkout.session.expired', session('cs_test_other', { status: 'expired' }));
    expect(res.body.outcome).toBe("ignored: not the order's session");
    expect(orderUpdates()).toEqual([]);
    expect((await deliver('checkout.session.expired', session('cs_test_own', { status: 'expired' }))).status).toBe(200);
    expect(orderUpdates()).toHaveLength(1);
  });

  test('the reconciler neither fulfils nor refunds another session naming the order', async () => {
    expect(await reconcileSession(session('cs_test_payment_link'), stripe)).toBeNull();
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
    expect(orderUpdates()).toEqual([]);
    expect(refunds).not.toHaveBeenCalled();
    // Its own session, unfulfilled, is repaired.
    expect(await reconcileSession(session('cs_test_own'), stripe)).toMatchObject({
      repair: 'session-paid-order-unpaid',
      detail: 'order paid, generation started',
    });
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
  });
});

describe('charge.dispute.created', () => {
  const dispute = (paymentIntent: string | null) => ({
    id: 'dp_1',
    object: 'dispute',
    amount: 70,
    currency: 'usd',
    charge: 'ch_1',
    payment_intent: paymentIntent,
    reason: 'fraudulent',
    status: 'needs_response',
  });

  test('is recorded on the order its payment paid, and counted', async () => {
    stored = order({ status: 'paid', payment_intent: 'pi_paid' });
    paymentIntents.mockResolvedValue({ id: 'pi_paid', metadata: { order_id: ORDER_ID } } as never);
    const metrics = recordMetrics();
    try {
      const res = await deliver('charge.dispute.created', dispute('pi_paid'));
      expect(res).toEqual({ status: 200, body: { received: true, outcome: 'order disputed' } });
      expect(metrics.count(METRICS.paymentsDisputed)).toBe(1);
    } finally {
      metrics.restore();
    }
    expect(paymentIntents).toHaveBeenCalledWith('pi_paid');
    const [update] = orderUpdates();
    expect(update.Key).toEqual({ order_id: ORDER_ID });
    expect(Object.values(update.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['dp_1', 'fraudulent', 70, 'usd']),
    );
    expect(update.UpdateExpression).toMatch(/if_not_exists/);
  });

  test("a dispute of a payment that is not the order's payment is counted, no order is marked", async () => {
    stored = order({ status: 'paid', payment_intent: 'pi_paid' });
    paymentIntents.mockResolvedValue({ id: 'pi_other', metadata: { order_id: ORDER_ID } } as never);
    const metrics = recordMetrics();
    try {
      expect((await deliver('charge.dispute.created', dispute('pi_other'))).body.outcome).toBe(
        'dispute of a payment without an order',
      );
      expect((await deliver('charge.dispute.created', dispute(null))).body.outcome).toBe(
        'dispute of a payment without an order',
      );
      expect(metrics.count(METRICS.paymentsDisputed)).toBe(2);
    } finally {
      metrics.restore();
    }
    expect(orderUpdates()).toEqual([]);
  });
});

describe('each event is handled once', () => {
  const paid = () => session('cs_test_own');

  test('a redelivery of a handled event is acknowledged as a duplicate and starts nothing', async () => {
    const id = `evt_twice_${++eventSeq}`;
    expect(await deliver('checkout.session.completed', paid(), { id })).toEqual({
      status: 200,
      body: { received: true, outcome: 'order paid, generation started' },
    });
    expect(await deliver('checkout.session.completed', paid(), { id })).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
  });

  test("a failed handling leaves no record: Stripe's retry of the event handles it", async () => {
    const id = `evt_fails_${++eventSeq}`;
    sfn
      .on(StartExecutionCommand)
      .rejectsOnce(new Error('Step Functions is unreachable'))
      .resolves({ executionArn: `${MACHINE}:${ORDER_ID}` });
    expect((await deliver('checkout.session.completed', paid(), { id })).status).toBe(500);
    expect(await deliver('checkout.session.completed', paid(), { id })).toEqual({
      status: 200,
      body: { received: true, outcome: 'order paid, generation started' },
    });
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(2);
  });

  test("while a delivery is at work a redelivery gets 409; once that delivery's time ran out, one takes over", async () => {
    const id = `evt_held_${++eventSeq}`;
    // The first delivery stops inside the handling (as a run that died there), with a second of its time left.
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    sfn
      .on(StartExecutionCommand)
      .callsFakeOnce(async () => {
        started();
        await held;
        return { executionArn: `${MACHINE}:${ORDER_ID}` };
      })
      .resolves({ executionArn: `${MACHINE}:${ORDER_ID}` });
    const first = deliver('checkout.session.completed', paid(), { id, context: lambdaContext(1000) });
    await reached;
    const busy = await deliver('checkout.session.completed', paid(), { id });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toMatch(/being handled by another delivery/);

    await new Promise((r) => setTimeout(r, 1100));
    expect(await deliver('checkout.session.completed', paid(), { id })).toEqual({
      status: 200,
      body: { received: true, outcome: 'order paid, generation started' },
    });
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(2);
    finish();
    await first;
    expect((await deliver('checkout.session.completed', paid(), { id })).body).toEqual({
      received: true,
      duplicate: true,
    });
  });
});

test('before payments are live (prelaunch) every delivery is refused with 409, and nothing is read or started', async () => {
  process.env.PAYMENT_MODE = 'prelaunch';
  expect(await deliver('checkout.session.completed', session('cs_test_own'))).toEqual({
    status: 409,
    body: { detail: 'Payments are not live yet.' },
  });
  expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
});
