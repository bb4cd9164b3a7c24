import { createHash } from 'node:crypto';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { ENV } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import { answer, conditionFailed, failure, mockDdb, sdkEnv, tableEnv } from '../../support/route-test';

/**
 * POST /api/erasure-request {email}: a one-time link to erase everything tied to the address goes to that address,
 * at most once every 10 minutes; the answer is the same whatever the address holds. The link's token is kept only
 * as its SHA-256.
 */
const SITE = 'https://toonzap.test';
sdkEnv();
Object.assign(process.env, tableEnv('erasures'), {
  [ENV.siteUrl]: SITE,
  [ENV.supportEmail]: 'support@toonzap.test',
  [ENV.mailFrom]: 'ToonZap <no-reply@toonzap.test>',
});
delete process.env[ENV.brandName];
let handler: typeof import('../../../lambdas/routes/request-erasure')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/request-erasure'));
});

const ddb = mockDdb();
const ses = mockClient(SESv2Client);
const NOW = new Date('2026-11-23T14:30:00Z');
const nowSeconds = NOW.getTime() / 1000;

const ask = (body: unknown, headers: Record<string, string> = {}) =>
  handler(httpEvent('POST /api/erasure-request', { body, headers }));
const erasureUpdates = () =>
  ddb.commandCalls(UpdateCommand, { TableName: 'erasures' }).map((c) => {
    const { Key, ExpressionAttributeValues } = c.args[0].input;
    return { id: Key?.erasure_id, values: ExpressionAttributeValues };
  });
const mails = () => ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input);

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  ses.reset();
  ddb.on(UpdateCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'mail-1' });
});
afterEach(() => jest.useRealTimers());

test('the link goes to the address (as it is indexed); only its SHA-256 is stored, valid 24 hours', async () => {
  expect(answer('request-erasure', await ask({ email: ' Whole.Me@Example.com ' }))).toEqual({
    status: 202,
    body: { status: 'sent' },
  });
  const [mail] = mails();
  expect(mail).toMatchObject({
    FromEmailAddress: 'ToonZap <no-reply@toonzap.test>',
    Destination: { ToAddresses: ['whole.me@example.com'] },
    ReplyToAddresses: ['support@toonzap.test'],
    EmailTags: [{ Name: 'erasure', Value: 'request' }],
  });
  expect(mail.Content?.Simple?.Subject?.Data).toBe('ToonZap: confirm deleting your data');
  const text = mail.Content?.Simple?.Body?.Text?.Data ?? '';
  const token = new RegExp(`${SITE}/forget/([A-Za-z0-9_-]{22})`).exec(text)?.[1];
  expect(token).toBeDefined();
  expect(mail.Content?.Simple?.Body?.Html?.Data).toContain(`${SITE}/forget/${token}`);

  const tokenId = `token#${createHash('sha256').update(token!).digest('hex')}`;
  expect(erasureUpdates()).toEqual([
    {
      id: 'address#whole.me@example.com',
      values: { ':v0': nowSeconds, ':v1': nowSeconds + 600, ':due': nowSeconds - 600 },
    },
    { id: tokenId, values: { ':v0': 'whole.me@example.com', ':v1': nowSeconds + 24 * 3600 } },
  ]);
  expect(JSON.stringify(ddb.calls().map((c) => c.args[0].input))).not.toContain(token);
});

test('asked again within 10 minutes: the same answer, no second link', async () => {
  ddb.on(UpdateCommand, { Key: { erasure_id: 'address#whole.me@example.com' } }).rejects(conditionFailed());
  expect(answer('request-erasure', await ask({ email: 'WHOLE.ME@example.com' }))).toEqual({
    status: 202,
    body: { status: 'sent' },
  });
  expect(erasureUpdates().map((u) => u.id)).toEqual(['address#whole.me@example.com']);
  expect(mails()).toEqual([]);
});

test('a link that could not be sent does not hold the address back: its turn is given back', async () => {
  ses.on(SendEmailCommand).rejectsOnce(new Error('Throttling: Maximum sending rate exceeded.'));
  expect((await ask({ email: 'whole.me@example.com' })).statusCode).toBe(500);
  // The address's turn is given back, only if it is still the one this request took.
  const giveBack = ddb.commandCalls(UpdateCommand).at(-1)?.args[0].input;
  expect(giveBack).toMatchObject({
    Key: { erasure_id: 'address#whole.me@example.com' },
    UpdateExpression: 'REMOVE #sent_at',
    ConditionExpression: 'sent_at = :sent',
    ExpressionAttributeValues: { ':sent': nowSeconds },
  });
});

test("a bad address is a 400 in the form's words; a body not sent as JSON a 415", async () => {
  for (const [body, detail] of [
    [{}, 'Email is required.'],
    [{ email: '' }, 'Email is required.'],
    [{ email: 'whole.me@' }, 'Please enter a valid email address.'],
    [{ email: 'ada\u202E@example.com' }, 'Please enter a valid email address.'],
    ['{', 'Request body is not valid JSON.'],
  ] as const) {
    expect(failure(await ask(body))).toEqual({ status: 400, body: { detail } });
  }
  expect(failure(await ask({ email: 'whole.me@example.com' }, { 'content-type': 'text/plain' }))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
  expect(mails()).toEqual([]);
});
