import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_ERRORS, itemKey } from '../../../domain/orders';
import { ENV, mediaKey } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  failure,
  generationOf,
  mockDdb,
  paidOrder,
  sdkEnv,
  shareIdOf,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * GET /api/generation/{id}: an order's status for whoever holds its status link (the order id): each item's state,
 * the progress, fresh links to the delivered images, the receipt, what was refunded and why; 410 once the customer
 * deleted it. The id is the capability: a photo's hash opens nothing here.
 */
sdkEnv();
Object.assign(process.env, tableEnv('generations', 'orders'), { [ENV.mediaBucket]: 'media' });
delete process.env[ENV.imageUrlTtlSeconds];
let handler: typeof import('../../../lambdas/routes/get-generation')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/get-generation'));
});

const ddb = mockDdb();
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const B = createHash('sha256').update('coffee').digest('hex');
const order = paidOrder(ORDER, [A, B], ['anime', 'comic']);
const NOW = new Date('2026-11-23T12:30:00Z');

const get = (id: string) => handler(httpEvent('GET /api/generation/{id}', { pathParameters: { id } }));

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'orders', order);
});
afterEach(() => jest.useRealTimers());

test('an order being made: each item where it is, the progress from them, links to what is delivered', async () => {
  storeItem(
    ddb,
    'generations',
    generationOf(order, {
      [itemKey(A, 'anime')]: { status: 'done' },
      [itemKey(A, 'comic')]: { queued_at: '2026-11-23T12:20:00.000Z' },
      [itemKey(B, 'comic')]: { status: 'failed', error: ITEM_ERRORS.render },
    }),
  );
  const { status, body } = answer('get-generation', await get(ORDER));
  expect(status).toBe(200);
  expect(body).toMatchObject({
    status: 'processing',
    progress: 50,
    error: null,
    queued: 1,
    items: [
      { imageHash: A, styleId: 'anime', state: 'done' },
      { imageHash: A, styleId: 'comic', state: 'queued' },
      { imageHash: B, styleId: 'anime', state: 'pending' },
      { imageHash: B, styleId: 'comic', state: 'failed' },
    ],
    failed: [{ imageHash: B, styleId: 'comic', styleName: 'Comic Book', error: ITEM_ERRORS.render }],
  });
  expect(body.refund).toBeUndefined();
  // Only the delivered image, under its photo's share id, never another order's file.
  expect(body.images).toEqual([
    { url: expect.any(String), styleName: 'Anime', styleId: 'anime', imageHash: A, shareId: shareIdOf(ORDER, A) },
  ]);
  const url = new URL(body.images[0].url);
  expect(url.pathname).toBe(`/${mediaKey.output(ORDER, A, 'anime')}`);
  expect(url.searchParams.get('response-content-disposition')).toBe(`inline; filename="Anime_${A.slice(0, 8)}.png"`);
  expect(url.searchParams.get('X-Amz-Expires')).toBe(String(24 * 3600));
});

test('a finished order with a refund: the refund, and the receipt the e-mail has', async () => {
  storeItem(
    ddb,
    'generations',
    generationOf(
      order,
      {
        [itemKey(A, 'anime')]: { status: 'done' },
        [itemKey(A, 'comic')]: { status: 'done' },
        [itemKey(B, 'anime')]: { status: 'done' },
        [itemKey(B, 'comic')]: { status: 'failed', error: ITEM_ERRORS.quality },
      },
      {
        status: 'completed',
        error: '1 of 4 images could not be generated. $0.49 has been refunded to your card.',
        refund: {
          amount: 49,
          currency: 'usd',
          items: 1,
          refund_ids: ['re_1'],
          refunded_at: '2026-11-23T12:25:00.000Z',
        },
      },
    ),
  );
  const { body } = answer('get-generation', await get(ORDER));
  expect(body).toMatchObject({
    status: 'completed',
    progress: 100,
    queued: 0,
    error: '1 of 4 images could not be generated. $0.49 has been refunded to your card.',
    // Stripe's refund ids stay on the server.
    refund: { amount: 49, currency: 'usd', items: 1, refunded_at: '2026-11-23T12:25:00.000Z' },
  });
  expect(body.images.map((i) => [i.imageHash, i.styleId])).toEqual([
    [A, 'anime'],
    [A, 'comic'],
    [B, 'anime'],
  ]);
  expect(body.receipt).toEqual([
    { label: '4 images (2 photos × 2 styles) at $0.70', value: '$2.80', note: 'Anime, Comic Book' },
    { label: 'Discount', value: '-$0.84' },
    { label: 'Paid', value: '$1.96', strong: true },
    { label: 'Refunded: 1 image not delivered', value: '-$0.49', note: ITEM_ERRORS.quality },
    { label: 'Paid after the refund', value: '$1.47', strong: true },
  ]);
});

test('without its order record the status still answers, without a receipt', async () => {
  storeItem(ddb, 'generations', generationOf(order));
  ddb.on(GetCommand, { TableName: 'orders' }).resolves({});
  expect(answer('get-generation', await get(ORDER)).body).toMatchObject({ status: 'processing', receipt: null });
});

test('an order the customer deleted: 410 with when, no link handed out', async () => {
  storeItem(
    ddb,
    'generations',
    generationOf(order, { [itemKey(A, 'anime')]: { status: 'done' } }, { erased_at: '2026-11-23T12:28:00.000Z' }),
  );
  const res = await get(ORDER);
  expect(failure(res)).toEqual({
    status: 410,
    body: {
      detail: 'The photos and images of this order were deleted at your request.',
      erased_at: '2026-11-23T12:28:00.000Z',
    },
  });
  expect(res.body).not.toContain('X-Amz');
});

test("an unknown order, or anything that is not an order's id (a photo's hash): the same 404", async () => {
  const notFound = { status: 404, body: { detail: 'Generation not found.' } };
  expect(failure(await get('00000000-0000-4000-8000-000000000000'))).toEqual(notFound);
  expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  for (const id of [A, 'not-an-order', ORDER.toUpperCase(), `${ORDER}/`]) {
    expect(failure(await get(id))).toEqual(notFound);
  }
  // Not even looked up.
  expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  expect(failure(await get('%ZZ'))).toEqual({
    status: 400,
    body: { detail: 'Path parameter id is not validly percent-encoded.' },
  });
});
