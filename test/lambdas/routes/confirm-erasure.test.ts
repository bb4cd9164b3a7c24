import { createHash } from 'node:crypto';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { itemKey } from '../../../domain/orders';
import { ENV, mediaKey } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  browser,
  failure,
  generationOf,
  mockDdb,
  ownerHold,
  paidOrder,
  sdkEnv,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * POST /api/erasure/{token}: the link e-mailed to an address erases every order with the address (as its status link
 * would) and deletes its sign-ups; orders still being paid or made are left for the same link to finish later. An
 * unknown, used or expired link is "not valid any more".
 */
sdkEnv();
Object.assign(process.env, tableEnv('erasures', 'orders', 'generations', 'images', 'holds', 'shares', 'signups'), {
  [ENV.mediaBucket]: 'media',
});
let handler: typeof import('../../../lambdas/routes/confirm-erasure')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/confirm-erasure'));
});

const ddb = mockDdb();
const s3 = mockClient(S3Client);
const TOKEN = 'Zm9yZ2V0LW1lLXRva2VuMQ';
const TOKEN_ID = `token#${createHash('sha256').update(TOKEN).digest('hex')}`;
const ADDRESS = 'whole.me@example.com';
const DONE = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const MAKING = '0b6d2f4e-3c1a-4f5e-9d8c-7b6a5f4e3d2c';
const ERASED = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const A = createHash('sha256').update('camera').digest('hex');
const me = browser('owner');
const NOW = new Date('2026-11-23T14:30:00Z');
const nowSeconds = NOW.getTime() / 1000;

const done = paidOrder(DONE, [A], ['sketch'], { owner: me.owner, email: 'Whole.Me@example.com', email_key: ADDRESS });
const making = paidOrder(MAKING, [A], ['anime'], { owner: me.owner, email_key: ADDRESS });
const confirm = (token: string) =>
  handler(httpEvent('POST /api/erasure/{token}', { pathParameters: { token }, body: {} }));
const byEmail = (table: string, items: Record<string, unknown>[]) =>
  ddb
    .on(QueryCommand, { TableName: table, IndexName: 'by-email', ExpressionAttributeValues: { ':a': ADDRESS } })
    .resolves({ Items: items });
const deletes = (table: string) =>
  ddb.commandCalls(DeleteCommand, { TableName: table }).map((c) => Object.values(c.args[0].input.Key ?? {})[0]);
const notValid = { status: 404, body: { detail: 'This link is not valid any more. Ask for a new one.' } };

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  s3.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(DeleteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(BatchWriteCommand).resolves({});
  s3.on(ListObjectsV2Command).callsFake(async ({ Prefix }) => ({
    Contents: [mediaKey.output(DONE, A, 'sketch'), mediaKey.upload(A)]
      .filter((k) => k.startsWith(Prefix))
      .map((Key) => ({ Key })),
  }));
  s3.on(DeleteObjectsCommand).resolves({});
  storeItem(ddb, 'erasures', { erasure_id: TOKEN_ID, email: ADDRESS, expires_at: nowSeconds + 3600 });
  storeItem(ddb, 'orders', done);
  storeItem(
    ddb,
    'generations',
    generationOf(done, { [itemKey(A, 'sketch')]: { status: 'done' } }, { status: 'completed' }),
  );
  storeItem(ddb, 'orders', making);
  storeItem(ddb, 'generations', generationOf(making, {}, { status: 'processing' }));
  storeItem(ddb, 'orders', paidOrder(ERASED, [A], ['comic'], { erased_at: '2026-11-20T10:00:00.000Z' }));
  ddb
    .on(QueryCommand, { TableName: 'holds', ExpressionAttributeValues: { ':h': A } })
    .resolves({ Items: [ownerHold(A, me, 'owner')] });
  byEmail('signups', [{ signup_id: `${ADDRESS}#${A}` }, { signup_id: `${ADDRESS}#${'0'.repeat(64)}` }]);
});
afterEach(() => jest.useRealTimers());

test('every finished order with the address is erased and its sign-ups deleted; the link is used up', async () => {
  byEmail('orders', [{ order_id: DONE }, { order_id: ERASED }]);
  expect(answer('confirm-erasure', await confirm(TOKEN))).toEqual({
    status: 200,
    body: {
      deleted: { orders_erased: 1, orders_in_progress: 0, photos_deleted: 1, files_deleted: 2, signups_deleted: 2 },
    },
  });
  // The token was looked up by its hash, never stored or asked for as itself.
  expect(ddb.commandCalls(GetCommand, { TableName: 'erasures' })[0].args[0].input).toMatchObject({
    Key: { erasure_id: TOKEN_ID },
    ConsistentRead: true,
  });
  expect(deletes('signups')).toEqual([`${ADDRESS}#${A}`, `${ADDRESS}#${'0'.repeat(64)}`]);
  expect(deletes('erasures')).toEqual([TOKEN_ID]);
  // The order erased as its status link would: its address gone from it and its generation; the one erased before
  // is left as it is.
  expect(ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([
    { generation_id: DONE },
    { order_id: DONE },
  ]);
});

test('an order still being made is left, and the link kept to finish it later', async () => {
  byEmail('orders', [{ order_id: DONE }, { order_id: MAKING }]);
  expect(answer('confirm-erasure', await confirm(TOKEN)).body.deleted).toEqual({
    orders_erased: 1,
    orders_in_progress: 1,
    photos_deleted: 1,
    files_deleted: 2,
    signups_deleted: 2,
  });
  expect(deletes('erasures')).toEqual([]);
  expect(ddb.commandCalls(UpdateCommand).map((c) => Object.values(c.args[0].input.Key ?? {})[0])).toEqual([DONE, DONE]);
});

test('an unknown, used or expired link, or no link at all: not valid, nothing touched', async () => {
  expect(failure(await confirm('A'.repeat(22)))).toEqual(notValid);
  storeItem(ddb, 'erasures', { erasure_id: TOKEN_ID, email: ADDRESS, expires_at: nowSeconds - 1 });
  expect(failure(await confirm(TOKEN))).toEqual(notValid);
  expect(ddb.commandCalls(GetCommand)).toHaveLength(2);
  // Not a token's shape (an order id, a photo's hash): not even looked up.
  for (const token of [DONE, A, 'short', `${TOKEN}=`]) expect(failure(await confirm(token))).toEqual(notValid);
  expect(ddb.commandCalls(GetCommand)).toHaveLength(2);
  expect([...ddb.commandCalls(QueryCommand), ...ddb.commandCalls(DeleteCommand), ...s3.calls()]).toHaveLength(0);
});

test('a body not sent as JSON is refused (415): a cross-site form cannot use a link', async () => {
  const form = httpEvent('POST /api/erasure/{token}', {
    pathParameters: { token: TOKEN },
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(failure(await handler(form))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
});
