import { randomUUID } from 'node:crypto';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { itemKey } from '../../domain/orders';
import { ddb } from '../../lambdas/lib/aws';
import type { GenerationRecord } from '../../lambdas/lib/generations';
import type { OrderRecord } from '../../lambdas/lib/orders';
import { handler } from '../../lambdas/tasks/order-email';
import { startTables } from '../support/dynamo';
import { lambdaContext } from '../support/lambda-context';
import { waitFor } from '../support/local-stripe';

/**
 * The order pipeline's e-mail task: the e-mail goes out once per generation, however often the task runs, whether a
 * run failed or died. The tables (the idempotency records among them) are dynalite; SES is an aws-sdk-client-mock
 * stand-in that counts the messages it accepted.
 */
const ses = mockClient(SESv2Client);
let tables: Awaited<ReturnType<typeof startTables>>;

beforeAll(async () => {
  tables = await startTables(['orders', 'generations', 'events']);
  Object.assign(process.env, {
    MAIL_FROM: 'ToonZap <no-reply@example.com>',
    SUPPORT_EMAIL: 'support@example.com',
    SITE_URL: 'https://toonzap.example',
  });
});
afterAll(() => tables?.close());
beforeEach(() => {
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-message-1' });
});

/** A paid order and its completed generation, stored; returns the order id. */
async function completedOrder(): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const order: OrderRecord = {
    order_id: id,
    status: 'paid',
    email: 'buyer@example.com',
    hashes: ['a'.repeat(64)],
    styles: ['anime'],
    generations: 1,
    price_per_generation: 70,
    original_price: 70,
    discount: 0,
    total: 70,
    currency: 'usd',
    created_at: now,
    session_expires_at: 0,
  };
  const generation: GenerationRecord = {
    generation_id: id,
    order_id: id,
    email: order.email,
    status: 'completed',
    items: { [itemKey('a'.repeat(64), 'anime')]: { image_hash: 'a'.repeat(64), style: 'anime', status: 'done' } },
    item_count: 1,
    done_count: 1,
    failed_count: 0,
    total: 70,
    currency: 'usd',
    payment_intent: 'pi_1',
    created_at: now,
    updated_at: now,
  };
  await ddb().send(new PutCommand({ TableName: 'orders', Item: order }));
  await ddb().send(new PutCommand({ TableName: 'generations', Item: generation }));
  return id;
}

const stored = async (id: string) =>
  (await ddb().send(new GetCommand({ TableName: 'generations', Key: { generation_id: id } }))).Item as GenerationRecord;

test('sent once: a later run (a retry, the reconciler) sends nothing and says so; the generation records it', async () => {
  const id = await completedOrder();
  expect(await handler({ order_id: id }, lambdaContext())).toEqual({ email: 'sent' });
  expect(await handler({ order_id: id }, lambdaContext())).toEqual({ email: 'already-sent' });
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  expect(ses.commandCalls(SendEmailCommand)[0].args[0].input.Destination?.ToAddresses).toEqual(['buyer@example.com']);
  expect(await stored(id)).toMatchObject({ email_sent_at: expect.any(String), email_message_id: 'ses-message-1' });
});

test('a send SES refused leaves no record: the retry sends it', async () => {
  const id = await completedOrder();
  ses
    .on(SendEmailCommand)
    .rejectsOnce(Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'TooManyRequestsException' }))
    .resolves({ MessageId: 'ses-message-2' });
  await expect(handler({ order_id: id }, lambdaContext())).rejects.toThrow(/Maximum sending rate/);
  expect((await stored(id)).email_sent_at).toBeUndefined();
  expect(await handler({ order_id: id }, lambdaContext())).toEqual({ email: 'sent' });
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
  expect((await stored(id)).email_message_id).toBe('ses-message-2');
});

test('a run that died while sending: retries wait (EmailInProgress) until its time ran out, then one sends, once', async () => {
  const id = await completedOrder();
  // The first run stops for good just after taking the send (lambdas/lib/fault-points.ts), a second of its time left.
  const printed = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  process.env.TOONZAP_PAUSE_AT = 'email:claimed';
  try {
    void handler({ order_id: id }, lambdaContext(1000));
    await waitFor(
      () => printed.mock.calls.some(([chunk]) => String(chunk).includes('"paused_at":"email:claimed"')),
      'the first run to stop',
    );
  } finally {
    delete process.env.TOONZAP_PAUSE_AT;
    printed.mockRestore();
  }
  // The state machine retries on this name (lib/order-pipeline.ts).
  await expect(handler({ order_id: id }, lambdaContext())).rejects.toMatchObject({ name: 'EmailInProgress' });
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);

  await new Promise((r) => setTimeout(r, 1100));
  expect(await handler({ order_id: id }, lambdaContext())).toEqual({ email: 'sent' });
  expect(await handler({ order_id: id }, lambdaContext())).toEqual({ email: 'already-sent' });
  expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
});
