import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ENV, mediaKey } from '../../../domain/wiring';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { httpEvent } from '../../support/http-event';
import { answer, browser, failure, mockDdb, ownerHold, sdkEnv, storeItem, tableEnv } from '../../support/route-test';

/**
 * GET /api/get-thumbnails/{image_hash}: the photo's previews as short-lived links in catalogue order, then the styles
 * paused for today's budget and those whose model was busy; for the owner of an allowed photo only.
 */
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds'), { [ENV.mediaBucket]: 'media' });
delete process.env[ENV.imageUrlTtlSeconds];
let handler: typeof import('../../../lambdas/routes/get-thumbnails')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/get-thumbnails'));
});

const ddb = mockDdb();
const HASH = createHash('sha256').update('astronaut').digest('hex');
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');
const TODAY = '2026-11-23';

const image = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: HASH,
  file_type: 'image/png',
  registered_at: `${TODAY}T09:00:00.000Z`,
  moderation: 'allowed',
  ...over,
});
const get = (hash: string, cookies?: string[]) =>
  handler(httpEvent('GET /api/get-thumbnails/{image_hash}', { pathParameters: { image_hash: hash }, cookies }));
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  jest.useFakeTimers({
    now: new Date(`${TODAY}T14:30:00Z`),
    doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
  });
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
});
afterEach(() => jest.useRealTimers());

test('each stored preview as a presigned GET of its own key, in catalogue order, valid a day by default', async () => {
  storeItem(ddb, 'images', image({ previews: ['comic', 'anime', '3d'] }));
  const { status, body } = answer('get-thumbnails', await get(HASH, me.cookies));
  expect(status).toBe(200);
  expect(body.map((t) => t.style.id)).toEqual(['3d', 'anime', 'comic']);
  for (const t of body) {
    const url = new URL(t.image!);
    expect(url.hostname).toBe('media.s3.us-east-1.amazonaws.com');
    expect(url.pathname).toBe(`/${mediaKey.preview(HASH, t.style.id)}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(24 * 3600));
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  }
});

test("styles paused for today's budget and styles whose model was busy are listed after the previews", async () => {
  storeItem(
    ddb,
    'images',
    image({
      previews: ['comic'],
      previews_paused: { day: TODAY, styles: ['3d'] },
      // 3d is paused as well: paused wins (the day's budget says more than a busy minute)
      previews_busy: ['anime', '3d'],
    }),
  );
  const { body } = answer('get-thumbnails', await get(HASH, me.cookies));
  expect(body.map(({ image: url, ...rest }) => ({ ...rest, image: url && 'url' }))).toEqual([
    { style: { id: 'comic' }, image: 'url' },
    { style: { id: '3d' }, image: null, paused: true },
    { style: { id: 'anime' }, image: null, busy: true },
  ]);
});

test("yesterday's pause is over: the style is only busy, or simply not listed", async () => {
  storeItem(
    ddb,
    'images',
    image({
      previews: ['comic'],
      previews_paused: { day: '2026-11-22', styles: ['3d', 'anime'] },
      previews_busy: ['3d'],
    }),
  );
  expect(answer('get-thumbnails', await get(HASH, me.cookies)).body.map((t) => [t.style.id, 'busy' in t])).toEqual([
    ['comic', false],
    ['3d', true],
  ]);
});

test('a photo that has not passed moderation has no previews to show: 403', async () => {
  for (const moderation of [undefined, 'rejected', 'invalid'] as const) {
    storeItem(ddb, 'images', image({ moderation, previews: ['comic'] }));
    expect(failure(await get(HASH, me.cookies))).toEqual({
      status: 403,
      body: { detail: 'Image has not passed moderation.' },
    });
  }
});

test('anyone but the owner, with the hash alone, gets the 404 of a photo never uploaded', async () => {
  storeItem(ddb, 'images', image({ previews: ['comic'] }));
  expect(failure(await get(UNKNOWN, me.cookies))).toEqual(notFound(UNKNOWN));
  for (const cookies of [undefined, stranger.cookies])
    expect(failure(await get(HASH, cookies))).toEqual(notFound(HASH));
  storeItem(ddb, 'holds', ownerHold(HASH, stranger, 'pending', 'reg-of-the-stranger00'));
  expect(failure(await get(HASH, stranger.cookies))).toEqual(notFound(HASH));
});

test('a path that is no image hash is a 400', async () => {
  expect(failure(await get('not-a-hash', me.cookies))).toEqual({
    status: 400,
    body: { detail: 'image_hash must be a SHA-256 hash (64 lowercase hex characters).' },
  });
});
