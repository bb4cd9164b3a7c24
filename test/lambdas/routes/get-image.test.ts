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
 * GET /api/image/{id}/{style}: one delivered image of a share link (one photo of one order), for whoever holds the
 * link; a style not delivered for that photo, like an unknown link, is the spec's 404. A photo's hash opens nothing.
 */
sdkEnv();
Object.assign(process.env, tableEnv('shares', 'generations'), {
  [ENV.mediaBucket]: 'media',
  [ENV.generativeStyles]: JSON.stringify(generativePresets(['3d'], 'us-west-2')),
});
delete process.env[ENV.imageUrlTtlSeconds];
let handler: typeof import('../../../lambdas/routes/get-image')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/get-image'));
});

const ddb = mockDdb();
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const B = createHash('sha256').update('coffee').digest('hex');
const order = paidOrder(ORDER, [A, B], ['sketch', '3d']);
const generation = generationOf(order, {
  [itemKey(A, 'sketch')]: { status: 'done' },
  [itemKey(A, '3d')]: { status: 'done' },
  [itemKey(B, 'sketch')]: { status: 'done' },
  [itemKey(B, '3d')]: { status: 'failed', error: 'This image could not be generated.' },
});
const SHARE_A = shareIdOf(ORDER, A);
const SHARE_B = shareIdOf(ORDER, B);

const one = (id: string, style: string) =>
  handler(httpEvent('GET /api/image/{id}/{style}', { pathParameters: { id, style } }));
const notFound = { status: 404, body: { detail: 'Image or style not found.' } };

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

test('a delivered style: its image with a fresh download link, its name, description and who drew it', async () => {
  const { status, body } = answer('get-image', await one(SHARE_A, 'sketch'));
  expect(status).toBe(200);
  expect(body).toEqual({
    url: expect.any(String),
    styleName: 'Pencil Sketch',
    styleId: 'sketch',
    imageHash: A,
    shareId: SHARE_A,
    description: getStyle('sketch')?.description,
    aiGenerated: false,
  });
  const url = new URL(body.url);
  expect(url.pathname).toBe(`/${mediaKey.output(ORDER, A, 'sketch')}`);
  expect(url.searchParams.get('response-content-disposition')).toBe(
    `inline; filename="Pencil_Sketch_${A.slice(0, 8)}.png"`,
  );
  expect(url.searchParams.get('X-Amz-Expires')).toBe(String(24 * 3600));
  expect(answer('get-image', await one(SHARE_A, '3d')).body).toMatchObject({
    styleName: '3D Animation',
    aiGenerated: true,
  });
});

test("a style not delivered for this photo (failed, not ordered, unknown): the spec's 404", async () => {
  for (const [id, style] of [
    [SHARE_B, '3d'],
    [SHARE_A, 'anime'],
    [SHARE_A, 'claymation'],
    [SHARE_A, '../sketch'],
  ]) {
    expect(failure(await one(id, style))).toEqual(notFound);
  }
});

test("the photo's hash, the order's id, an unknown share, an erased order: the same 404", async () => {
  for (const id of [A, ORDER, 'A'.repeat(22)]) expect(failure(await one(id, 'sketch'))).toEqual(notFound);
  storeItem(ddb, 'generations', { ...generation, erased_at: '2026-11-23T14:00:00.000Z' });
  expect(failure(await one(SHARE_A, 'sketch'))).toEqual(notFound);
});
