import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type Stripe from 'stripe';
import type { OrderRecord } from '../../lambdas/lib/orders';
import { handler } from '../../lambdas/routes/stripe-webhook';
import { type LocalStripe, startLocalStripe } from '../../local/stripe/server';
import { FakeTables, tableEnv } from '../support/fake-dynamo';
import { httpEvent } from '../support/http-event';
import { lambdaContext } from '../support/lambda-context';
import { clientFor, formValues, sessionParams, waitFor } from '../support/local-stripe';

/**
 * A dispute end to end, without the whole runtime: the local Stripe's checkout page is paid with Stripe's dispute
 * test card, its signed webhooks reach the real webhook handler (the app's SDK client pointed at the local Stripe),
 * and the order, in the in-memory tables (test/support/fake-dynamo.ts), is paid and then marked disputed; each event
 * is handled once.
 */
const SECRET = 'whsec_test_dispute_flow';
const tables = new FakeTables();
const sfn = mockClient(SFNClient);
let local: LocalStripe;
let app: http.Server;

beforeAll(async () => {
  app = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const result = await handler(
      httpEvent('POST /api/stripe-webhook', {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
      lambdaContext(),
    );
    res.writeHead(result.statusCode).end(result.body);
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  local = await startLocalStripe({
    webhookUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/stripe-webhook`,
    webhookSecret: SECRET,
    log: () => {},
  });
  Object.assign(process.env, {
    PAYMENT_MODE: 'simulated',
    STRIPE_SECRET_KEY: local.secretKey,
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: local.url,
    ...tableEnv,
    ORDER_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:orders',
  });
});

afterAll(async () => {
  await local.close();
  app.close();
});

test("paid with Stripe's dispute card: the order is paid, then marked disputed", async () => {
  const stripe = clientFor(local);
  const session = await stripe.checkout.sessions.create(
    sessionParams({ metadata: { order_id: 'order-1' }, payment_intent_data: { metadata: { order_id: 'order-1' } } }),
  );
  const order: OrderRecord = {
    order_id: 'order-1',
    status: 'created',
    email: 'ada@example.com',
    hashes: ['a'.repeat(64)],
    styles: ['anime'],
    generations: 1,
    price_per_generation: 998,
    original_price: 998,
    discount: 0,
    total: session.amount_total ?? 0,
    currency: 'usd',
    created_at: new Date().toISOString(),
    session_expires_at: session.expires_at,
    session_id: session.id,
  };
  tables.put('orders', order);

  const form = formValues(await (await fetch(session.url as string)).text());
  form.set('card_number', '4000 0000 0000 0259');
  expect(
    (await fetch(`${local.url}/pay/${session.id}`, { method: 'POST', body: form, redirect: 'manual' })).status,
  ).toBe(303);
  const paid = tables.get<OrderRecord>('orders', 'order-1');
  expect(paid).toMatchObject({ status: 'paid', payment_intent: expect.stringMatching(/^pi_/) });
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);

  const marked = await waitFor(
    () =>
      tables.stub
        .commandCalls(UpdateCommand, { TableName: 'orders' })
        .map((c) => Object.values(c.args[0].input.ExpressionAttributeValues ?? {}))
        .find((values) => values.includes('fraudulent')),
    'the order marked disputed',
  );
  const dispute = marked.find((v) => String(v).startsWith('dp_'));
  expect(dispute).toBeDefined();
  expect(marked).toEqual(expect.arrayContaining([order.total, 'usd']));
  const retrieved = await stripe.checkout.sessions.retrieve(session.id);
  expect((retrieved as Stripe.Checkout.Session).payment_intent).toBe(paid?.payment_intent);
  expect(tables.get('orders', 'order-1')).toMatchObject({ dispute_id: dispute, disputed_at: expect.any(String) });
});
