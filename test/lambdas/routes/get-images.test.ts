import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { generativePresets } from '../../../domain/config';
import { itemKey } from '../../../domain/orders';
import { getStyle } from '../../../domain/styles';
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
 * GET /api/image/{id}: a share link's gallery, the delivered images of one photo in one order, in catalogue order,
 * for whoever holds the link. Never reached by the photo's hash or the order's id.
 */
sdkEnv();
Object.assign(process.env, tableEnv('shares', 'generations'), {
  [ENV.mediaBucket]: 'media',
  [ENV.generativeStyles]: JSON.stringify(generativePresets(['3d'], 'us-west-2')),
});
let handler: typeof import('../../../lambdas/routes/get-images')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/get-images'));
});

const ddb = mockDdb();
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const B = createHash('sha256').update('coffee').digest('hex');
const order = paidOrder(ORDER, [A, B], ['anime', 'comic', '3d']);
const generation = generationOf(order, {
  [itemKey(A, 'anime')]: { status: 'done' },
  [itemKey(A, '3d')]: { status: 'done' },
  [itemKey(A, 'comic')]: { status: 'failed', error: 'This image could not be generated.' },
  [itemKey(B, 'comic')]: { status: 'done' },
});
const SHARE_A = shareIdOf(ORDER, A);
const SHARE_B = shareIdOf(ORDER, B);

const gallery = (id: string) => handler(httpEvent('GET /api/image/{id}', { pathParameters: { id } }));
const notFound = { status: 404, body: { detail: 'No images found for this hash.' } };

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'generations', generation);
  for (const [share_id, image_hash] of [
    [SHARE_A, A],
    [SHARE_B, B],
  ])
    storeItem(ddb, 'shares', { share_id, order_id: ORDER, image_hash, created_at: order.created_at });
});

test("the share's photo's delivered images, in catalogue order, described, with fresh links", async () => {
  const { status, body } = answer('get-images', await gallery(SHARE_A));
  expect(status).toBe(200);
  expect(body.map(({ url, ...rest }) => rest)).toEqual(
    (['3d', 'anime'] as const).map((id) => ({
      styleName: getStyle(id)?.name,
      styleId: id,
      imageHash: A,
      shareId: SHARE_A,
      description: getStyle(id)?.description,
      aiGenerated: id === '3d',
    })),
  );
  for (const image of body) {
    expect(new URL(image.url).pathname).toBe(`/${mediaKey.output(ORDER, A, image.styleId)}`);
  }
  // The other photo of the order has a share link of its own.
  expect(answer('get-images', await gallery(SHARE_B)).body.map((i) => [i.imageHash, i.styleId])).toEqual([
    [B, 'comic'],
  ]);
});

test("the photo's hash, the order's id, an unknown or malformed share: the spec's 404", async () => {
  for (const id of [A, ORDER, 'A'.repeat(22), 'not-a-share', `${SHARE_A}x`]) {
    expect(failure(await gallery(id))).toEqual(notFound);
  }
  // Only the well-formed unknown share was looked up.
  expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
});

test('a share with nothing delivered, or of an order the customer deleted, shows nothing', async () => {
  storeItem(ddb, 'generations', generationOf(order));
  expect(failure(await gallery(SHARE_A))).toEqual(notFound);
  storeItem(ddb, 'generations', { ...generation, erased_at: '2026-11-23T14:00:00.000Z' });
  expect(failure(await gallery(SHARE_A))).toEqual(notFound);
  // The generation itself gone (its records expired).
  ddb.on(GetCommand, { TableName: 'generations' }).resolves({});
  expect(failure(await gallery(SHARE_A))).toEqual(notFound);
});
