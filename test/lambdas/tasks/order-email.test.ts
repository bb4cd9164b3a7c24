import '../../support/task-env';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { itemKey } from '../../../domain/orders';
import { EMAIL_LEASE_SECONDS } from '../../../lambdas/lib/mail';
import { handler } from '../../../lambdas/tasks/order-email';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { ORDER_ID, paidOrder, storedGeneration, storeOrder, TASK_ENV } from '../../support/tasks';

/**
 * lambdas/tasks/order-email.ts, the order pipeline's "Send order e-mail": one e-mail per order, whatever runs it
 * again. Another run's live claim is EmailInProgress (the state's own Retry waits it out); a claim left by a run that
 * died is taken over once its lease is past; a send SES refused gives the claim back so the retry can send.
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

beforeEach(() => {
  jest.useFakeTimers({ now: T0 });
  tables.reset();
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'msg-1' });
});
afterEach(() => jest.useRealTimers());

test('a finished order: one e-mail to the buyer with its gallery, notice and receipt; recorded sent', async () => {
  const { generation } = finishedOrder();
  expect(await handler({ order_id: ORDER_ID })).toEqual({ email: 'sent' });
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
  expect(storedGeneration(tables)).toMatchObject({
    email_status: 'sent',
    email_sent_at: T0.toISOString(),
    email_message_id: 'msg-1',
  });
});

test('an order that delivered nothing is told so', async () => {
  storeOrder(
    tables,
    paidOrder([A], ['comic'], {
      items: { [itemKey(A, 'comic')]: { status: 'failed', error: 'x' } },
      over: { status: 'failed', error: 'We could not generate your images. $0.70 has been refunded to your card.' },
    }),
  );
  await handler({ order_id: ORDER_ID });
  const [mail] = sent();
  expect(mail.Content?.Simple?.Subject?.Data).toBe('ToonZap: we could not create your images');
  expect(mail.Content?.Simple?.Body?.Text?.Data).toContain(
    'We could not generate your images. $0.70 has been refunded',
  );
});

test('run again after it was sent: already-sent, no second e-mail', async () => {
  finishedOrder();
  await handler({ order_id: ORDER_ID });
  expect(await handler({ order_id: ORDER_ID })).toEqual({ email: 'already-sent' });
  expect(sent()).toHaveLength(1);
});

test('a run that died holding the claim: EmailInProgress within its lease, then taken over and sent once', async () => {
  finishedOrder();
  // The first run claimed, then its sandbox died before SES answered (its send never reached SES).
  tables.put('generations', {
    ...storedGeneration(tables),
    email_status: 'sending',
    email_claimed_at: Math.floor(T0.getTime() / 1000),
  });
  const busy = await handler({ order_id: ORDER_ID }).catch((e: Error) => e);
  expect(busy).toMatchObject({ name: 'EmailInProgress' }); // the name the state's Retry matches
  jest.setSystemTime(T0.getTime() + EMAIL_LEASE_SECONDS * 1000);
  await expect(handler({ order_id: ORDER_ID })).rejects.toMatchObject({ name: 'EmailInProgress' });
  jest.setSystemTime(T0.getTime() + (EMAIL_LEASE_SECONDS + 1) * 1000);
  expect(await handler({ order_id: ORDER_ID })).toEqual({ email: 'sent' });
  expect(await handler({ order_id: ORDER_ID })).toEqual({ email: 'already-sent' });
  expect(sent()).toHaveLength(1);
});

test('SES refuses the send: the error is thrown, the claim given back, and the retry sends at once', async () => {
  finishedOrder();
  ses
    .on(SendEmailCommand)
    .rejectsOnce(awsError('TooManyRequestsException', 'Maximum sending rate exceeded.'))
    .resolves({ MessageId: 'msg-2' });
  await expect(handler({ order_id: ORDER_ID })).rejects.toMatchObject({ name: 'TooManyRequestsException' });
  expect(storedGeneration(tables).email_status).toBeUndefined();
  expect(await handler({ order_id: ORDER_ID })).toEqual({ email: 'sent' });
  expect(sent()).toHaveLength(2);
  expect(storedGeneration(tables).email_status).toBe('sent');
});

test('a crash after SES accepted, before it was recorded: the next run within the lease sends nothing', async () => {
  finishedOrder();
  tables.failNext(
    'Update',
    (input) => (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':v0'] === 'sent',
    new Error('sandbox lost'),
  );
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow('sandbox lost');
  await expect(handler({ order_id: ORDER_ID })).rejects.toMatchObject({ name: 'EmailInProgress' });
  expect(sent()).toHaveLength(1);
});

test('a generation still processing, or missing: a plain error, no e-mail', async () => {
  storeOrder(tables, paidOrder([A], ['comic']));
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow(/is processing; the e-mail waits/);
  tables.reset();
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow(`Generation ${ORDER_ID} not found`);
  expect(sent()).toHaveLength(0);
});
