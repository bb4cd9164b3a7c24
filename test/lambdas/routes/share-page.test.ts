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
 * GET /image/{id}/{style}: a share link as a page crawlers read without running a script: the site's app shell
 * (fetched from the site, kept a minute) with the share's own title, URL and picture (its share card) in place of
 * the site's, never indexed, never cached. Not found is the same shell, 404, without a picture.
 */
const SITE = 'https://toonzap.test';
sdkEnv();
Object.assign(process.env, tableEnv('shares', 'generations'), { [ENV.siteUrl]: SITE });
delete process.env[ENV.brandName];
let handler: typeof import('../../../lambdas/routes/share-page')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/share-page'));
});

/** The app shell as the site serves it: the site's own head, then the app's script. */
const SHELL =
  '<!doctype html><html><head><meta charset="utf-8"/><title>ToonZap: photos to cartoons</title>' +
  '<meta name="description" content="Turn photos into cartoons"/><meta name="robots" content="index"/>' +
  '<link rel="canonical" href="https://toonzap.test/"/><meta property="og:image" content="/thumbnails/pixar.png"/>' +
  '<meta name="twitter:card" content="summary"/><script type="module" crossorigin src="/assets/start-abc123.js"></script>' +
  '</head><body><div id="root"></div></body></html>';
const fetchShell = jest.spyOn(globalThis, 'fetch');

const ddb = mockDdb();
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const order = paidOrder(ORDER, [A], ['sketch', 'comic']);
const generation = generationOf(order, {
  [itemKey(A, 'sketch')]: { status: 'done' },
  [itemKey(A, 'comic')]: { status: 'failed', error: 'This image could not be generated.' },
});
const SHARE = shareIdOf(ORDER, A);
/** Each test starts past the shell's minute in the cache of the one before. */
let clock = Date.parse('2026-11-23T14:30:00Z');

const page = (id: string, style: string) =>
  handler(httpEvent('GET /image/{id}/{style}', { pathParameters: { id, style } }));

beforeEach(() => {
  clock += 120_000;
  jest.useFakeTimers({ now: clock, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'generations', generation);
  storeItem(ddb, 'shares', { share_id: SHARE, order_id: ORDER, image_hash: A, created_at: order.created_at });
  fetchShell.mockReset().mockImplementation(async () => new Response(SHELL, { status: 200 }));
});
afterEach(() => jest.useRealTimers());

test("the app shell with the share's title, URL and card in place of the site's, not indexed, not cached", async () => {
  const res = await page(SHARE, 'sketch');
  expect(res.statusCode).toBe(200);
  expect(res.headers).toMatchObject({
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'x-robots-tag': 'noindex',
  });
  expect(fetchShell).toHaveBeenCalledWith(`${SITE}/app.html`, expect.anything());
  const html = res.body;
  const card = `${SITE}/api/share-card/${SHARE}/sketch`;
  const url = `${SITE}/image/${SHARE}/sketch`;
  expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe('My photo in the Pencil Sketch style | ToonZap');
  expect(html.match(/<title>/g)).toHaveLength(1);
  expect({
    'og:title': metaContent(html, 'og:title'),
    'og:image': metaContent(html, 'og:image'),
    'twitter:image': metaContent(html, 'twitter:image'),
    'twitter:card': metaContent(html, 'twitter:card'),
    'og:url': metaContent(html, 'og:url'),
    robots: metaContent(html, 'robots'),
  }).toEqual({
    'og:title': 'My photo in the Pencil Sketch style | ToonZap',
    'og:image': card,
    'twitter:image': card,
    'twitter:card': 'summary_large_image',
    'og:url': url,
    robots: 'noindex',
  });
  expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
  // The site's own head is gone; the page is still the app.
  expect(html).not.toContain('/thumbnails/pixar.png');
  expect(html).not.toContain('content="index"');
  expect(html).toContain('<script type="module" crossorigin src="/assets/start-abc123.js"></script>');
});

test('the shell is fetched once a minute, not per view', async () => {
  await page(SHARE, 'sketch');
  await page(SHARE, 'sketch');
  expect(fetchShell).toHaveBeenCalledTimes(1);
  jest.setSystemTime(clock + 61_000);
  await page(SHARE, 'sketch');
  expect(fetchShell).toHaveBeenCalledTimes(2);
});

test("a style not delivered, an unknown share, the photo's hash: the shell as a 404, without a picture", async () => {
  for (const [id, style] of [
    [SHARE, 'comic'],
    [SHARE, 'claymation'],
    ['A'.repeat(22), 'sketch'],
    [A, 'sketch'],
    [ORDER, 'sketch'],
  ]) {
    const res = await page(id, style);
    expect(res.statusCode).toBe(404);
    expect(/<title>([^<]*)<\/title>/.exec(res.body)?.[1]).toBe('Not found | ToonZap');
    expect(metaContent(res.body, 'description')).toBe('Image or style not found.');
    expect(metaContent(res.body, 'og:image')).toBeUndefined();
  }
});

test('what the path holds is never markup in the page', async () => {
  const res = await page(SHARE, '"><script>alert(1)</script>');
  expect(res.statusCode).toBe(404);
  expect(res.body).not.toContain('<script>alert');
  expect(metaContent(res.body, 'og:url')).toBe(
    `${SITE}/image/${SHARE}/${encodeURIComponent('"><script>alert(1)</script>')}`,
  );
});

test('a site that does not answer: 503, try again', async () => {
  fetchShell.mockImplementation(async () => new Response('busy', { status: 502 }));
  const res = await page(SHARE, 'sketch');
  expect([res.statusCode, res.body]).toEqual([
    503,
    '<!doctype html><title>Please try again</title><p>Please try again in a moment.</p>',
  ]);
  fetchShell.mockRejectedValue(new TypeError('fetch failed'));
  expect((await page(SHARE, 'sketch')).statusCode).toBe(503);
});
