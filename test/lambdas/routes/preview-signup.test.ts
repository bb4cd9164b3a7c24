import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PLACEHOLDER_IMAGE_HASH } from '../../../domain/ownership';
import { RETENTION_DAYS } from '../../../domain/privacy';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  browser,
  conditionFailed,
  failure,
  mockDdb,
  ownerHold,
  REFUSED_ADDRESSES,
  sdkEnv,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * POST /api/preview-signup {email, image_hash}: one sign-up per (address, photo), for the photo's owner; the spec's
 * placeholder hash (no photo passed moderation) names no photo and needs no owner.
 */
sdkEnv();
Object.assign(process.env, tableEnv('holds', 'signups'));
let handler: typeof import('../../../lambdas/routes/preview-signup')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/preview-signup'));
});

const ddb = mockDdb();
const HASH = createHash('sha256').update('astronaut').digest('hex');
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');
const NOW = new Date('2026-11-23T14:30:00Z');

const signUp = (body: unknown, cookies?: string[]) => handler(httpEvent('POST /api/preview-signup', { body, cookies }));
const signupPuts = () => ddb.commandCalls(PutCommand, { TableName: 'signups' }).map((c) => c.args[0].input);
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
});
afterEach(() => jest.useRealTimers());

test('the owner signs up once per address and photo (the address as typed, compared as it is indexed)', async () => {
  expect(answer('preview-signup', await signUp({ email: 'Fan@Example.com', image_hash: HASH }, me.cookies))).toEqual({
    status: 201,
    body: { status: 'signed_up' },
  });
  expect(signupPuts()).toEqual([
    {
      TableName: 'signups',
      Item: {
        signup_id: `fan@example.com#${HASH}`,
        email: 'fan@example.com',
        image_hash: HASH,
        created_at: NOW.toISOString(),
        expires_at: NOW.getTime() / 1000 + RETENTION_DAYS.signups * 24 * 3600,
      },
      ConditionExpression: 'attribute_not_exists(signup_id)',
    },
  ]);
  // Signing up again is no error: the stored sign-up stays.
  ddb.on(PutCommand, { TableName: 'signups' }).rejects(conditionFailed());
  expect(answer('preview-signup', await signUp({ email: ' fan@example.com ', image_hash: HASH }, me.cookies))).toEqual({
    status: 200,
    body: { status: 'already_signed_up' },
  });
  expect(signupPuts()[1]?.Item?.signup_id).toBe(`fan@example.com#${HASH}`);
});

test('the placeholder hash names no photo: anyone may sign up with it', async () => {
  const res = await signUp({ email: 'early@example.com', image_hash: PLACEHOLDER_IMAGE_HASH });
  expect(answer('preview-signup', res)).toEqual({ status: 201, body: { status: 'signed_up' } });
  expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
});

test('anyone but the owner, with the hash alone, gets the 404 of a photo never uploaded, and nothing is stored', async () => {
  expect(failure(await signUp({ email: 'fan@example.com', image_hash: UNKNOWN }, me.cookies))).toEqual(
    notFound(UNKNOWN),
  );
  for (const cookies of [undefined, stranger.cookies]) {
    expect(failure(await signUp({ email: 'thief@example.com', image_hash: HASH }, cookies))).toEqual(notFound(HASH));
  }
  storeItem(ddb, 'holds', ownerHold(HASH, stranger, 'pending', 'reg-of-the-stranger00'));
  expect(failure(await signUp({ email: 'thief@example.com', image_hash: HASH }, stranger.cookies))).toEqual(
    notFound(HASH),
  );
  expect(signupPuts()).toEqual([]);
});

test("a bad body is a 400 with the spec's words for the address; a body not sent as JSON a 415", async () => {
  const invalid = 'Please enter a valid email address.';
  for (const [body, detail] of [
    [{ image_hash: HASH }, 'Email is required.'],
    [{ email: '', image_hash: HASH }, 'Email is required.'],
    [{ email: '   ', image_hash: HASH }, 'Email is required.'],
    [{ email: 'fan@', image_hash: HASH }, invalid],
    ...REFUSED_ADDRESSES.map((email) => [{ email, image_hash: HASH }, invalid] as const),
    [
      { email: 'fan@example.com', image_hash: 'nope' },
      'image_hash must be a SHA-256 hash (64 lowercase hex characters).',
    ],
    ['{"email":', 'Request body is not valid JSON.'],
  ] as const) {
    expect(failure(await signUp(body, me.cookies))).toEqual({ status: 400, body: { detail } });
  }
  const plain = httpEvent('POST /api/preview-signup', {
    body: { email: 'fan@example.com', image_hash: HASH },
    cookies: me.cookies,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(failure(await handler(plain))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
});
