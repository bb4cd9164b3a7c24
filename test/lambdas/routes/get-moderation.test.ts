import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MIN_SHORT_SIDE } from '../../../domain/image-format';
import { INVALID_REASON, REFUSAL_REASONS } from '../../../domain/moderation-policy';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { httpEvent } from '../../support/http-event';
import { answer, browser, failure, mockDdb, ownerHold, sdkEnv, storeItem, tableEnv } from '../../support/route-test';

/**
 * GET /api/get-moderation/{image_hash}: the verdict on a photo, with the reason in words when it was refused, for the
 * photo's owner only; anyone else is told the photo does not exist.
 */
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds'));
let handler: typeof import('../../../lambdas/routes/get-moderation')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/get-moderation'));
});

const ddb = mockDdb();
const HASH = createHash('sha256').update('astronaut').digest('hex');
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');

const image = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: HASH,
  file_type: 'image/png',
  registered_at: '2026-11-23T14:00:00.000Z',
  verified: true,
  width: 1024,
  height: 768,
  ...over,
});

const get = (hash: string, cookies?: string[]) =>
  handler(httpEvent('GET /api/get-moderation/{image_hash}', { pathParameters: { image_hash: hash }, cookies }));
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
});

describe('the owner reads the verdict', () => {
  test('allowed: no reason', async () => {
    storeItem(ddb, 'images', image({ moderation: 'allowed' }));
    expect(answer('get-moderation', await get(HASH, me.cookies))).toEqual({
      status: 200,
      body: { image_hash: HASH, moderation: 'allowed' },
    });
    // The hold is read consistently: an upload just confirmed is seen at once.
    expect(ddb.commandCalls(GetCommand, { TableName: 'holds' })[0].args[0].input).toMatchObject({
      Key: { hold_id: `${HASH}#owner#${me.owner}` },
      ConsistentRead: true,
    });
  });

  test('not moderated yet: pending', async () => {
    storeItem(ddb, 'images', image());
    expect(answer('get-moderation', await get(HASH, me.cookies)).body).toEqual({
      image_hash: HASH,
      moderation: 'pending',
    });
  });

  test("rejected: the category's reason in words, never the labels", async () => {
    storeItem(
      ddb,
      'images',
      image({
        moderation: 'rejected',
        moderation_category: 'nudity',
        moderation_reasons: ['Explicit Nudity: 98.1%'],
      }),
    );
    const res = await get(HASH, me.cookies);
    expect(answer('get-moderation', res).body).toEqual({
      image_hash: HASH,
      moderation: 'rejected',
      reason: REFUSAL_REASONS.nudity,
    });
    expect(res.body).not.toContain('Explicit');
    storeItem(ddb, 'images', image({ moderation: 'rejected' }));
    expect(answer('get-moderation', await get(HASH, me.cookies)).body.reason).toBe('does not meet our content rules');
  });

  test('invalid: its size when too small or too long, else that it could not be read', async () => {
    storeItem(ddb, 'images', image({ moderation: 'invalid', width: 120, height: 90 }));
    expect(answer('get-moderation', await get(HASH, me.cookies)).body).toEqual({
      image_hash: HASH,
      moderation: 'invalid',
      reason: `is too small (120×90 px): photos need at least ${MIN_SHORT_SIDE} px on their short side`,
    });
    storeItem(ddb, 'images', image({ moderation: 'invalid', width: 256, height: 156_250 }));
    expect(answer('get-moderation', await get(HASH, me.cookies)).body.reason).toMatch(/^is too long and narrow/);
    storeItem(ddb, 'images', image({ moderation: 'invalid', width: undefined, height: undefined }));
    expect(answer('get-moderation', await get(HASH, me.cookies)).body.reason).toBe(INVALID_REASON);
  });
});

describe('anyone else learns nothing', () => {
  beforeEach(() => storeItem(ddb, 'images', image({ moderation: 'allowed' })));

  test('no cookie, another browser, or a malformed secret: the 404 of a photo never uploaded', async () => {
    expect(failure(await get(UNKNOWN, me.cookies))).toEqual(notFound(UNKNOWN));
    for (const cookies of [undefined, stranger.cookies, ['tz_owner=short'], [`tz_owner=${'!'.repeat(43)}`]]) {
      expect(failure(await get(HASH, cookies))).toEqual(notFound(HASH));
    }
  });

  test('a registration whose bytes are not checked yet owns nothing', async () => {
    storeItem(ddb, 'holds', ownerHold(HASH, stranger, 'pending', 'reg-of-the-stranger00'));
    expect(failure(await get(HASH, stranger.cookies))).toEqual(notFound(HASH));
  });
});

test('a path that is no image hash is a 400 that says what it takes', async () => {
  for (const bad of ['xyz', HASH.toUpperCase(), `${HASH}0`]) {
    expect(failure(await get(bad, me.cookies))).toEqual({
      status: 400,
      body: { detail: 'image_hash must be a SHA-256 hash (64 lowercase hex characters).' },
    });
  }
  expect(failure(await get('%E0%A4%A', me.cookies))).toEqual({
    status: 400,
    body: { detail: 'Path parameter image_hash is not validly percent-encoded.' },
  });
  expect(ddb.calls()).toHaveLength(0);
});
