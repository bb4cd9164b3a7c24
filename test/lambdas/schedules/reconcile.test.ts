import '../../support/task-env';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import { ITEM_ERRORS, itemKey } from '../../../domain/orders';
import { ENV, METRICS } from '../../../domain/wiring';
import { recordMetrics } from '../../support/metrics';

/**
 * lambdas/schedules/reconcile.ts, run every 5 minutes: each paid Checkout Session's order is brought to where it must
 * be (fulfilled, generating, or closed with its refund and e-mail), through the code paths that normally do the work,
 * so a second pass repairs nothing twice. Stripe is the real SDK with its list and refund calls replaced; DynamoDB,
 * Step Functions and SES are SDK-level fakes.
 */
const stripe = new Stripe('sk_test_reconcile');
const refunds = jest.spyOn(stripe.refunds, 'create');
const list = jest.spyOn(stripe.checkout.sessions, 'list');
jest.mock('../../../lambdas/lib/payments', () => ({
  payments: async () => ({ stripe, webhookSecret: 'whsec_unused' }),
}));

import type { GenerationRecord } from '../../../lambdas/lib/generations';
import { logger } from '../../../lambdas/lib/observability';
import type { OrderRecord } from '../../../lambdas/lib/orders';
import { stuckAfterSeconds } from '../../../lambdas/lib/reconciler';
import { executionArn } from '../../../lambdas/lib/workflows';
import { handler } from '../../../lambdas/schedules/reconcile';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { lambdaContext } from '../../support/lambda-context';
import { paidOrder } from '../../support/tasks';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:orders';
process.env[ENV.orderMachineArn] = MACHINE;
const tables = new FakeTables();
const sfn = mockClient(SFNClient);
const ses = mockClient(SESv2Client);
const H = 'a'.repeat(64);
/** Step Functions' executions by ARN. */
const executions = new Map<string, string>();

/** Order `n` of the pass, paid by its own session `cs_<n>` (70 cents, one photo in comic). */
function order(n: string, status: OrderRecord['status'], generation?: Partial<GenerationRecord>) {
  const records = paidOrder([H], ['comic']);
  const orderId = `0000000${n}-0000-4000-8000-000000000000`;
  const { payment_intent, paid_at, ...unpaid } = records.order;
  const stored = status === 'created' ? unpaid : records.order;
  tables.put('orders', { ...stored, order_id: orderId, status, session_id: `cs_${n}` });
  if (generation)
    tables.put('generations', {
      ...records.generation,
      generation_id: orderId,
      order_id: orderId,
      ...generation,
    });
  return orderId;
}
const session = (n: string, orderId: string, over: Partial<Stripe.Checkout.Session> = {}) =>
  ({
    id: `cs_${n}`,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 70,
    currency: 'usd',
    client_reference_id: orderId,
    metadata: { order_id: orderId },
    payment_intent: `pi_${n}`,
    ...over,
  }) as Stripe.Checkout.Session;
const generation = (orderId: string) => tables.get<GenerationRecord>('generations', orderId);
const arn = (orderId: string) => executionArn(MACHINE, orderId);

/** One scheduled run, which must have reconciled (payments are live). */
async function pass() {
  const out = await handler(undefined, lambdaContext());
  if ('skipped' in out) throw new Error(`the pass was skipped: ${out.skipped}`);
  return out;
}

let sessions: Stripe.Checkout.Session[] = [];
beforeEach(() => {
  process.env[ENV.paymentMode] = 'stripe';
  tables.reset();
  executions.clear();
  sessions = [];
  list.mockReset().mockImplementation(
    () =>
      (async function* () {
        yield* sessions;
      })() as never,
  );
  refunds.mockReset().mockImplementation(async () => ({ id: `re_${refunds.mock.calls.length}` }) as never);
  sfn.reset();
  sfn.on(DescribeExecutionCommand).callsFake(({ executionArn: a }) => {
    const status = executions.get(a);
    if (!status) throw new ExecutionDoesNotExist({ message: `Execution Does Not Exist: '${a}'`, $metadata: {} });
    return { executionArn: a, status };
  });
  sfn.on(StartExecutionCommand).callsFake(({ stateMachineArn, name }) => {
    executions.set(executionArn(stateMachineArn, name), 'RUNNING');
    return { executionArn: executionArn(stateMachineArn, name) };
  });
  sfn.on(StopExecutionCommand).callsFake(({ executionArn: a }) => {
    executions.set(a, 'ABORTED');
    return {};
  });
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'msg' });
});

test('one pass repairs each broken order once; a second pass finds nothing to do', async () => {
  const now = Date.now();
  // A crash at each step of the webhook's fulfilment: before the order was marked paid, after it, after the
  // generation was stored (before the pipeline started).
  const unpaid = order('1', 'created');
  const paidOnly = order('8', 'paid');
  const notStarted = order('9', 'paid', { status: 'pending' });
  const fine = order('2', 'paid', { status: 'completed', email_sent_at: '2026-01-01T00:00:00.000Z' });
  const ended = order('3', 'paid', { status: 'processing' }); // its execution was stopped without closing it
  executions.set(arn(ended), 'ABORTED');
  const stuck = order('4', 'paid', {
    status: 'processing',
    created_at: new Date(now - (stuckAfterSeconds() + 60) * 1000).toISOString(),
  });
  executions.set(arn(stuck), 'RUNNING');
  const young = order('5', 'paid', { status: 'processing' });
  executions.set(arn(young), 'RUNNING');
  sessions = [
    session('1', unpaid),
    session('8', paidOnly),
    session('9', notStarted),
    session('2', fine),
    session('3', ended),
    session('4', stuck),
    session('5', young),
    session('6', fine, { id: 'cs_payment_link' }), // names an order it does not pay for: the webhook's to refund
    session('7', unpaid, { id: 'cs_7', payment_status: 'unpaid' }),
  ];

  const metrics = recordMetrics();
  const warnings = jest.spyOn(logger, 'warn');
  let first: Awaited<ReturnType<typeof pass>>;
  try {
    first = await pass();
    expect(metrics.sum(METRICS.reconcilerRepairs)).toBe(5);
  } finally {
    metrics.restore();
  }
  // Each repair is one log line an operator can find.
  expect(warnings.mock.calls.filter(([message]) => message === 'reconciled').map(([, fields]) => fields)).toEqual(
    first.repairs.map((r) => expect.objectContaining({ repair: r.repair, order_id: r.order_id })),
  );
  warnings.mockRestore();
  expect(list).toHaveBeenCalledWith(expect.objectContaining({ status: 'complete' }));
  expect(first).toMatchObject({ checked: 9, errors: [] });
  expect(first.repairs.map((r) => [r.order_id, r.repair])).toEqual([
    [unpaid, 'session-paid-order-unpaid'],
    [paidOnly, 'order-paid-without-generation'],
    [notStarted, 'generation-without-execution'],
    [ended, 'execution-ended-unfinished'],
    [stuck, 'generation-stuck'],
  ]);

  // Fulfilled as the webhook would have: paid, its generation made, its pipeline started (named after it), once.
  expect(tables.get<OrderRecord>('orders', unpaid)).toMatchObject({ status: 'paid', payment_intent: 'pi_1' });
  for (const id of [unpaid, paidOnly]) expect(generation(id)).toMatchObject({ status: 'pending', item_count: 1 });
  expect(sfn.commandCalls(StartExecutionCommand).map((c) => c.args[0].input.name)).toEqual([
    unpaid,
    paidOnly,
    notStarted,
  ]);
  // Closed: the undelivered item refunded, the customer told; the stuck one's execution stopped first.
  for (const id of [ended, stuck]) {
    expect(generation(id)).toMatchObject({
      status: 'failed',
      email_sent_at: expect.any(String),
      refund: { amount: 70 },
    });
    expect(generation(id)!.items[itemKey(H, 'comic')]).toMatchObject({ status: 'failed', error: ITEM_ERRORS.stopped });
  }
  expect(sfn.commandCalls(StopExecutionCommand).map((c) => c.args[0].input.executionArn)).toEqual([arn(stuck)]);
  expect(refunds).toHaveBeenCalledTimes(2);
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);

  const second = await pass();
  expect(second).toMatchObject({ checked: 9, repairs: [], errors: [] });
  expect(refunds).toHaveBeenCalledTimes(2);
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(3);
});

test('a session whose repair fails is reported and left for the next pass; the others are repaired', async () => {
  const a = order('1', 'paid', { status: 'processing' });
  const b = order('2', 'created');
  sessions = [session('1', a), session('2', b)];
  sfn.on(DescribeExecutionCommand).rejects(awsError('AccessDeniedException', 'not authorized'));
  const out = await pass();
  expect(out.errors).toEqual([{ session_id: 'cs_1', message: 'not authorized' }]);
  expect(out.repairs.map((r) => r.order_id)).toEqual([b]);
  expect(generation(a)!.status).toBe('processing');
});

test('before launch no payment is taken: nothing is read from Stripe', async () => {
  process.env[ENV.paymentMode] = 'prelaunch';
  expect(await handler(undefined, lambdaContext())).toEqual({ skipped: 'payments are not live' });
  expect(list).not.toHaveBeenCalled();
});
