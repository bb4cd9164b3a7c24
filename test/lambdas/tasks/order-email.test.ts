import '../../support/task-env';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { itemKey } from '../../../domain/orders';
import { handler } from '../../../lambdas/tasks/order-email';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { lambdaContext } from '../../support/lambda-context';
import { ORDER_ID, paidOrder, storedGeneration, storeOrder, TASK_ENV } from '../../support/tasks';

/**
 * lambdas/tasks/order-email.ts, the order pipeline's "Send order e-mail": one e-mail per order, whatever runs it
 * again (Powertools idempotency over the events table, lambdas/lib/idempotency.ts). Another run at it now is
 * EmailInProgress (the state's own Retry waits it out); a run that died holding it is taken over once its function's
 * time has run out; a send SES refused leaves nothing behind, so the retry sends.
 */
const tables = new FakeTables();
const ses = mockClient(SESv2Client);
const [A, B] = ['a'.repeat(64), 'b'.repeat(64)];
const T0 = new Date('2026-03-02T10:00:00.000Z');

/** An order of two photos in comic: A's delivered, B's failed and refunded (as order-finalize leaves it). */
function finishedOrder() {
  const records = paidOrder([A, B], ['comic'], {
    items: {
      [itemKey(A, 'comic')]: { status: 'done' },
      [itemKey(B, 'comic')]: { status: 'failed', error: 'This image could not be generated.' },
    },
    over: {
      status: 'completed',
      error: '1 of 2 images could not be generated. $0.70 has been refunded to your card.',
      refund: { amount: 70, currency: 'usd', items: 1, refund_ids: ['re_1'], refunded_at: T0.toISOString() },
    },
  });
  storeOrder(tables, records);
  return records;
}
const sent = () => ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input);
const run = (ms?: number) => handler({ order_id: ORDER_ID }, lambdaContext(ms));

beforeEach(() => {
  jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  tables.reset();
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'msg-1' });
});
afterEach(() => jest.useRealTimers());

test('a finished order: one e-mail to the buyer with its gallery, notice and receipt; recorded sent', async () => {
  const { generation } = finishedOrder();
  expect(await run()).toEqual({ email: 'sent' });
  expect(sent()).toHaveLength(1);
  const [mail] = sent();
  expect(mail.Destination).toEqual({ ToAddresses: ['buyer@example.com'] });
  expect(mail.FromEmailAddress).toBe(TASK_ENV.MAIL_FROM);
  expect(mail.ReplyToAddresses).toEqual([TASK_ENV.SUPPORT_EMAIL]);
  expect(mail.EmailTags).toEqual([{ Name: 'generation_id', Value: ORDER_ID }]);
  const text = mail.Content?.Simple?.Body?.Text?.Data ?? '';
  expect(mail.Content?.Simple?.Subject?.Data).toBe('ToonZap: your cartoon images are ready');
  // The delivered photo's gallery by its share link, never the failed photo's, never a hash.
  expect(text).toContain(`https://toonzap.test/image/${generation.share_ids![A]}`);
  expect(text).not.toContain(generation.share_ids![B]);
  expect(text).not.toContain(A);
  expect(text).toContain(`https://toonzap.test/status/${ORDER_ID}`);
  expect(text).toContain('$0.70 has been refunded');
  expect(storedGeneration(tables)).toMatchObject({ email_sent_at: T0.toISOString(), email_message_id: 'msg-1' });
});

test('an order that delivered nothing is told so', async () => {
  storeOrder(
    tables,
    paidOrder([A], ['comic'], {
      items: { [itemKey(A, 'comic')]: { status: 'failed', error: 'x' } },
      over: { status: 'failed', error: 'We could not generate your images. $0.70 has been refunded to your card.' },
    }),
  );
  await run();
  const [mail] = sent();
  expect(mail.Content?.Simple?.Subject?.Data).toBe('ToonZap: we could not create your images');
  expect(mail.Content?.Simple?.Body?.Text?.Data).toContain(
    'We could not generate your images. $0.70 has been refunded',
  );
});

test('run again after it was sent (a retry, the reconciler): already-sent, no second e-mail', async () => {
  finishedOrder();
  await run();
  expect(await run()).toEqual({ email: 'already-sent' });
  expect(sent()).toHaveLength(1);
});

test('a run that died while sending: EmailInProgress until its time ran out, then taken over and sent once', async () => {
  finishedOrder();
  // The first run's send never comes back: its sandbox died with a second of its time left.
  ses
    .on(SendEmailCommand)
    .callsFakeOnce(() => new Promise(() => {}))
    .resolves({ MessageId: 'msg-1' });
  void run(1000);
  for (let i = 0; i < 20 && sent().length === 0; i++) await new Promise((r) => setImmediate(r));
  expect(sent()).toHaveLength(1);
  const busy = await run().catch((e: Error) => e);
  expect(busy).toMatchObject({ name: 'EmailInProgress' }); // the name the state's Retry matches
  jest.setSystemTime(T0.getTime() + 1000);
  await expect(run()).rejects.toMatchObject({ name: 'EmailInProgress' });
  jest.setSystemTime(T0.getTime() + 1001);
  expect(await run()).toEqual({ email: 'sent' });
  expect(await run()).toEqual({ email: 'already-sent' });
  expect(sent()).toHaveLength(2); // the dead run's attempt, and the one that was sent
});

test('SES refuses the send: the error is thrown, nothing kept, and the retry sends at once', async () => {
  finishedOrder();
  ses
    .on(SendEmailCommand)
    .rejectsOnce(awsError('TooManyRequestsException', 'Maximum sending rate exceeded.'))
    .resolves({ MessageId: 'msg-2' });
  await expect(run()).rejects.toMatchObject({ name: 'TooManyRequestsException' });
  expect(storedGeneration(tables).email_sent_at).toBeUndefined();
  expect(await run()).toEqual({ email: 'sent' });
  expect(sent()).toHaveLength(2);
  expect(storedGeneration(tables).email_message_id).toBe('msg-2');
});

test('a crash after SES accepted, before the result was kept: the next run within its time sends nothing', async () => {
  finishedOrder();
  // Powertools keeps the result with an UpdateItem on the events table.
  tables.failNext('Update', (input) => input.TableName === 'events', new Error('sandbox lost'));
  await expect(run()).rejects.toThrow();
  await expect(run()).rejects.toMatchObject({ name: 'EmailInProgress' });
  expect(sent()).toHaveLength(1);
});

test('a generation still processing, or missing: a plain error, no e-mail', async () => {
  storeOrder(tables, paidOrder([A], ['comic']));
  await expect(run()).rejects.toThrow(/is processing; the e-mail waits/);
  tables.reset();
  await expect(run()).rejects.toThrow(`Generation ${ORDER_ID} not found`);
  expect(sent()).toHaveLength(0);
});
