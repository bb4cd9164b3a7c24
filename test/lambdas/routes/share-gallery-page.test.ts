import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { itemKey } from '../../../domain/orders';
import { ENV } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import {
  generationOf,
  metaContent,
  mockDdb,
  paidOrder,
  sdkEnv,
  shareIdOf,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * GET /image/{id}: a share link's gallery as a page for crawlers: the app shell with the gallery's title, URL and the
 * card of its first image (catalogue order); not found is the shell as a 404 without a picture.
 */
const SITE = 'https://toonzap.test';
sdkEnv();
Object.assign(process.env, tableEnv('shares', 'generations'), { [ENV.siteUrl]: SITE, [ENV.brandName]: 'Cartoonery' });
let handler: typeof import('../../../lambdas/routes/share-gallery-page')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/share-gallery-page'));
});

const SHELL =
  '<!doctype html><html><head><title>Cartoonery</title><meta property="og:image" content="/thumbnails/pixar.png"/>' +
  '<script type="module" src="/assets/start-abc123.js"></script></head><body><div id="root"></div></body></html>';
const fetchShell = jest.spyOn(globalThis, 'fetch');

const ddb = mockDdb();
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const B = createHash('sha256').update('coffee').digest('hex');
const order = paidOrder(ORDER, [A, B], ['sketch', 'comic', 'watercolor']);
const SHARE_A = shareIdOf(ORDER, A);
const SHARE_B = shareIdOf(ORDER, B);

const page = (id: string) => handler(httpEvent('GET /image/{id}', { pathParameters: { id } }));
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(
    ddb,
    'generations',
    generationOf(order, {
      [itemKey(A, 'watercolor')]: { status: 'done' },
      [itemKey(A, 'comic')]: { status: 'done' },
      [itemKey(A, 'sketch')]: { status: 'failed', error: 'This image could not be generated.' },
      [itemKey(B, 'watercolor')]: { status: 'done' },
    }),
  );
  for (const [share_id, image_hash] of [
    [SHARE_A, A],
    [SHARE_B, B],
  ])
    storeItem(ddb, 'shares', { share_id, order_id: ORDER, image_hash, created_at: order.created_at });
  fetchShell.mockReset().mockImplementation(async () => new Response(SHELL, { status: 200 }));
});

test('a gallery of several styles: its count in the title, the card of its first style in catalogue order', async () => {
  const res = await page(SHARE_A);
  expect([res.statusCode, res.headers?.['x-robots-tag'], res.headers?.['cache-control']]).toEqual([
    200,
    'noindex',
    'no-cache',
  ]);
  expect(title(res.body)).toBe('My photo in 2 cartoon styles | Cartoonery');
  expect(metaContent(res.body, 'og:image')).toBe(`${SITE}/api/share-card/${SHARE_A}/comic`);
  expect(metaContent(res.body, 'twitter:image')).toBe(`${SITE}/api/share-card/${SHARE_A}/comic`);
  expect(metaContent(res.body, 'og:url')).toBe(`${SITE}/image/${SHARE_A}`);
  expect(metaContent(res.body, 'og:description')).toBe(
    'Made with Cartoonery: turn your own photos into cartoon-style art.',
  );
  expect(res.body).toContain('<script type="module" src="/assets/start-abc123.js"></script>');
});

test('a gallery of one style names it', async () => {
  const res = await page(SHARE_B);
  expect(title(res.body)).toBe('My photo in the Watercolor style | Cartoonery');
  expect(metaContent(res.body, 'og:image')).toBe(`${SITE}/api/share-card/${SHARE_B}/watercolor`);
});

test("the photo's hash, the order's id, an unknown share, an erased order: the shell as a 404, no picture", async () => {
  const erased = generationOf(
    order,
    { [itemKey(A, 'comic')]: { status: 'done' } },
    { erased_at: '2026-11-23T14:00:00Z' },
  );
  for (const id of [A, ORDER, 'A'.repeat(22)]) {
    const res = await page(id);
    expect([res.statusCode, title(res.body), metaContent(res.body, 'og:image')]).toEqual([
      404,
      'Not found | Cartoonery',
      undefined,
    ]);
  }
  storeItem(ddb, 'generations', erased);
  expect((await page(SHARE_A)).statusCode).toBe(404);
});
