import { createHash } from 'node:crypto';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { itemKey } from '../../../domain/orders';
import { ENV, MEDIA_PREFIX, mediaKey } from '../../../domain/wiring';
import type { OrderRecord } from '../../../lambdas/lib/orders';
import type { HoldRecord } from '../../../lambdas/lib/owners';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  browser,
  conditionFailed,
  failure,
  generationOf,
  mockDdb,
  ownerHold,
  paidOrder,
  sdkEnv,
  shareIdOf,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * POST /api/generation/{id}/delete: whoever holds the status link deletes the order's own images, share links and
 * e-mail address, and the order lets go of its photos; a photo itself goes only when nobody holds it any more.
 * Refused (409) while the order is being paid or made. A repeat deletes nothing more.
 */
sdkEnv();
Object.assign(process.env, tableEnv('orders', 'generations', 'images', 'holds', 'shares'), {
  [ENV.mediaBucket]: 'media',
});
let handler: typeof import('../../../lambdas/routes/delete-order-data')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/delete-order-data'));
});

const ddb = mockDdb();
const s3 = mockClient(S3Client);
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const OTHER_ORDER = '0b6d2f4e-3c1a-4f5e-9d8c-7b6a5f4e3d2c';
const A = createHash('sha256').update('astronaut').digest('hex');
const me = browser('owner');
const second = browser('second visitor');
const NOW = new Date('2026-11-23T14:30:00Z');
const order = paidOrder(ORDER, [A], ['anime', 'comic'], { owner: me.owner });
const done = generationOf(
  order,
  { [itemKey(A, 'anime')]: { status: 'done' }, [itemKey(A, 'comic')]: { status: 'done' } },
  { status: 'completed' },
);
const SHARE = shareIdOf(ORDER, A);

/** The media bucket's files, listed by prefix as S3 would. */
const FILES = [
  mediaKey.output(ORDER, A, 'anime'),
  mediaKey.output(ORDER, A, 'comic'),
  mediaKey.shareCard(SHARE, 'anime'),
  mediaKey.shareCard(SHARE, 'comic'),
  mediaKey.upload(A),
  mediaKey.preview(A, 'anime'),
  mediaKey.preview(A, 'comic'),
  mediaKey.analysis(A),
];
const orderHold = (orderId: string, owner: string): HoldRecord => ({
  hold_id: `${A}#order#${orderId}`,
  image_hash: A,
  holder: `order#${orderId}`,
  owner,
  created_at: '2026-11-23T12:00:00.000Z',
});
/** Who holds the photo, as its by-image index answers (the order's own hold included until it is deleted). */
const holders = (...holds: HoldRecord[]) =>
  ddb.on(QueryCommand, { TableName: 'holds', ExpressionAttributeValues: { ':h': A } }).resolves({ Items: holds });

const remove = (id: string) =>
  handler(httpEvent('POST /api/generation/{id}/delete', { pathParameters: { id }, body: {} }));
const deletedKeys = () =>
  s3.commandCalls(DeleteObjectsCommand).flatMap((c) => c.args[0].input.Delete?.Objects?.map((o) => o.Key ?? '') ?? []);
const deletes = (table: string) =>
  ddb.commandCalls(DeleteCommand, { TableName: table }).map((c) => Object.values(c.args[0].input.Key ?? {})[0]);
const erasures = () =>
  ddb.commandCalls(UpdateCommand).map((c) => {
    const { TableName, Key, UpdateExpression, ConditionExpression } = c.args[0].input;
    return { TableName, Key, UpdateExpression, ConditionExpression };
  });

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  s3.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(BatchWriteCommand).resolves({});
  s3.on(ListObjectsV2Command).callsFake(async ({ Prefix }) => ({
    Contents: FILES.filter((k) => k.startsWith(Prefix)).map((Key) => ({ Key })),
  }));
  s3.on(DeleteObjectsCommand).resolves({});
  storeItem(ddb, 'orders', order);
  storeItem(ddb, 'generations', done);
  holders(orderHold(ORDER, me.owner), ownerHold(A, me, 'owner'));
});
afterEach(() => jest.useRealTimers());

test("the last holder lets go: the order's images, share links and address go, and the photo itself", async () => {
  expect(answer('delete-order-data', await remove(ORDER))).toEqual({
    status: 200,
    body: {
      deleted: { photos_deleted: 1, photos_kept: 0, files_deleted: 8, email_removed: true, signups_deleted: 0 },
    },
  });
  expect(deletedKeys().sort()).toEqual([...FILES].sort());
  expect(ddb.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems)).toEqual([
    { shares: [{ DeleteRequest: { Key: { share_id: SHARE } } }] },
  ]);
  expect(deletes('holds')).toEqual([`${A}#order#${ORDER}`, `${A}#owner#${me.owner}`]);
  expect(deletes('images')).toEqual([A]);
  // The address leaves both records, and they say when; the accounting figures stay.
  expect(erasures()).toEqual(
    ['generations', 'orders'].map((table) => ({
      TableName: table,
      Key: table === 'orders' ? { order_id: ORDER } : { generation_id: ORDER },
      UpdateExpression: 'SET #erased_at = if_not_exists(#erased_at, :v0) REMOVE #email, #email_key',
      ConditionExpression: `attribute_exists(${table === 'orders' ? 'order_id' : 'generation_id'})`,
    })),
  );
});

test("a photo another order or owner still holds is kept; the owner's own hold stays while their other order holds it", async () => {
  holders(orderHold(ORDER, me.owner), ownerHold(A, me, 'owner'), orderHold(OTHER_ORDER, me.owner));
  expect(answer('delete-order-data', await remove(ORDER)).body.deleted).toEqual({
    photos_deleted: 0,
    photos_kept: 1,
    files_deleted: 4,
    email_removed: true,
    signups_deleted: 0,
  });
  expect(
    deletedKeys().filter((k) => !k.startsWith(MEDIA_PREFIX.outputs) && !k.startsWith(MEDIA_PREFIX.shares)),
  ).toEqual([]);
  expect(deletes('holds')).toEqual([`${A}#order#${ORDER}`]);
  expect(deletes('images')).toEqual([]);

  // A second visitor who owns the same bytes keeps the photo; this owner lets go of it.
  ddb.resetHistory();
  s3.resetHistory();
  holders(orderHold(ORDER, me.owner), ownerHold(A, me, 'owner'), ownerHold(A, second, 'owner'));
  expect(answer('delete-order-data', await remove(ORDER)).body.deleted).toMatchObject({ photos_kept: 1 });
  expect(deletes('holds')).toEqual([`${A}#order#${ORDER}`, `${A}#owner#${me.owner}`]);
  expect(deletes('images')).toEqual([]);
});

test('a repeat answers at once: nothing deleted, nothing written', async () => {
  storeItem(ddb, 'orders', { ...order, email: undefined, email_key: undefined, erased_at: '2026-11-23T14:00:00.000Z' });
  expect(answer('delete-order-data', await remove(ORDER)).body.deleted).toEqual({
    photos_deleted: 0,
    photos_kept: 0,
    files_deleted: 0,
    email_removed: false,
    signups_deleted: 0,
  });
  expect(s3.calls()).toHaveLength(0);
  expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  expect([...ddb.commandCalls(UpdateCommand), ...ddb.commandCalls(DeleteCommand)]).toHaveLength(0);
});

describe('409 while the order is still open', () => {
  test('waiting for payment (its session still open); once it expired, the unpaid order can go', async () => {
    const unpaid: OrderRecord = paidOrder(ORDER, [A], ['anime'], {
      owner: me.owner,
      status: 'created',
      session_id: undefined,
      payment_intent: undefined,
      paid_at: undefined,
      session_expires_at: NOW.getTime() / 1000 + 60,
    });
    storeItem(ddb, 'orders', unpaid);
    ddb.on(GetCommand, { TableName: 'generations' }).resolves({});
    expect(failure(await remove(ORDER))).toEqual({
      status: 409,
      body: {
        detail: 'This order is waiting for payment. Cancel the payment first, or try again once it has expired.',
      },
    });
    expect([...s3.calls(), ...ddb.commandCalls(UpdateCommand), ...ddb.commandCalls(DeleteCommand)]).toHaveLength(0);

    jest.setSystemTime(NOW.getTime() + 61_000);
    // Never paid, so no generation: its conditional update finds nothing, and that is no error.
    ddb.on(UpdateCommand, { TableName: 'generations' }).rejects(conditionFailed());
    expect(answer('delete-order-data', await remove(ORDER)).body.deleted).toMatchObject({
      photos_deleted: 1,
      email_removed: true,
    });
    expect(erasures().map((u) => u.TableName)).toEqual(['generations', 'orders']);
  });

  test('images still being made', async () => {
    for (const status of ['pending', 'processing'] as const) {
      storeItem(ddb, 'generations', { ...done, status });
      expect(failure(await remove(ORDER))).toEqual({
        status: 409,
        body: { detail: 'Your images are still being made. You can delete them once they are ready.' },
      });
    }
    expect(s3.calls()).toHaveLength(0);
    storeItem(ddb, 'generations', { ...done, status: 'failed' });
    expect((await remove(ORDER)).statusCode).toBe(200);
  });
});

test("an unknown order, or anything that is not an order's id (a photo's hash): the same 404, nothing deleted", async () => {
  const notFound = { status: 404, body: { detail: 'Order not found.' } };
  for (const id of ['00000000-0000-4000-8000-000000000000', A, 'not-an-order', SHARE]) {
    expect(failure(await remove(id))).toEqual(notFound);
  }
  expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  expect(s3.calls()).toHaveLength(0);
});

test('a body not sent as JSON is refused (415): a cross-site form cannot delete an order', async () => {
  const form = httpEvent('POST /api/generation/{id}/delete', {
    pathParameters: { id: ORDER },
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(failure(await handler(form))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
});
