import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { OWNER_COOKIE_MAX_AGE_SECONDS, RANDOM_ID_RE } from '../../../domain/ownership';
import { RETENTION_DAYS } from '../../../domain/privacy';
import { MAX_FILE_BYTES } from '../../../domain/upload-rules';
import { ENV, mediaKey } from '../../../domain/wiring';
import type { HttpResult } from '../../../lambdas/lib/http';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { hashChecksum } from '../../../lambdas/lib/media';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  browser,
  conditionFailed,
  failure,
  getMissing,
  headMissing,
  mockDdb,
  objectBody,
  ownerHold,
  pngPhoto,
  sdkEnv,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * POST /api/upload-image {image_hash, file_type, file_size}: 'exists' for the photo's owner when a good copy is
 * stored; for everyone else (and an owner whose copy is gone) a presigned PUT of exactly these bytes to a key of the
 * registration's own, counted against the global caps. A browser without an owner secret is given one (cookie).
 */
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds', 'counters'), { [ENV.mediaBucket]: 'media' });
for (const name of [
  ENV.uploadUrlTtlSeconds,
  ENV.uploadsPerDay,
  ENV.uploadsPerHour,
  ENV.uploadMegabytesPerDay,
  ENV.uploadMegabytesPerHour,
])
  delete process.env[name];
let handler: typeof import('../../../lambdas/routes/upload-image')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/upload-image'));
});

const ddb = mockDdb();
const s3 = mockClient(S3Client);
const PHOTO = pngPhoto(1024, 768);
const HASH = PHOTO.hash;
const SIZE = PHOTO.bytes.length;
const me = browser('owner');
const stranger = browser('stranger');
const NOW = new Date('2026-11-23T14:30:00Z');
const ETAG = '"etag-of-the-judged-object"';

const image = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: HASH,
  file_type: 'image/png',
  registered_at: '2026-11-23T09:00:00.000Z',
  verified: true,
  width: 1024,
  height: 768,
  ...over,
});
const allowed = () => image({ moderation: 'allowed', object_etag: ETAG, object_size: SIZE });
const storedCopy = (etag = ETAG) =>
  s3
    .on(HeadObjectCommand, { Key: mediaKey.upload(HASH) })
    .resolves({ ETag: etag, ContentLength: SIZE, ChecksumSHA256: hashChecksum(HASH) });

const register = (cookies?: string[], body: unknown = { image_hash: HASH, file_type: 'image/png', file_size: SIZE }) =>
  handler(httpEvent('POST /api/upload-image', { body, cookies }));

const holdPuts = () => ddb.commandCalls(PutCommand, { TableName: 'holds' }).map((c) => c.args[0].input.Item);
const imageUpdates = () => ddb.commandCalls(UpdateCommand, { TableName: 'images' }).map((c) => c.args[0].input);
const counterUpdates = () =>
  ddb.commandCalls(UpdateCommand, { TableName: 'counters' }).map((c) => {
    const { Key, UpdateExpression, ExpressionAttributeValues: values } = c.args[0].input;
    return [Key?.counter_id, values?.[/ADD #count (:\w+)/.exec(UpdateExpression ?? '')?.[1] ?? '']];
  });
/** The registration an upload URL is for: its key is uploads/proofs/<registration id>. */
const registrationOf = (url: string) => new URL(url).pathname.replace(`/${mediaKey.proof('')}`, '');
const uploadUrl = (res: HttpResult) => {
  const body = answer('upload-image', res).body;
  if (body.status !== 'upload') throw new Error(`expected an upload URL, got ${JSON.stringify(body)}`);
  return body.url.url;
};

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  s3.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  s3.on(HeadObjectCommand).rejects(headMissing());
  s3.on(GetObjectCommand).rejects(getMissing());
  s3.on(CopyObjectCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
});
afterEach(() => jest.useRealTimers());

describe('a new photo', () => {
  test('a browser without a secret is issued one; its upload URL signs type, length, checksum and write-once', async () => {
    const res = await register();
    const url = new URL(uploadUrl(res));
    const [cookie] = res.cookies ?? [];
    expect(res.cookies).toHaveLength(1);
    expect(cookie).toMatch(
      new RegExp(
        `^tz_owner=[A-Za-z0-9_-]{43}; Path=/api; Max-Age=${OWNER_COOKIE_MAX_AGE_SECONDS}; HttpOnly; Secure; SameSite=Strict$`,
      ),
    );
    const secret = cookie.split(';')[0].slice('tz_owner='.length);
    expect(res.body).not.toContain(secret);

    expect(url.hostname).toBe('media.s3.us-east-1.amazonaws.com');
    const registration = registrationOf(url.href);
    expect(registration).toMatch(RANDOM_ID_RE);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host;if-none-match;x-amz-checksum-sha256',
    );
    // Signed as headers, never in the URL: the browser must send exactly these.
    expect(url.searchParams.has('x-amz-checksum-sha256')).toBe(false);

    // The browser's hold is pending on its registration; the tables keep only the secret's SHA-256.
    const owner = createHash('sha256').update(secret).digest('hex');
    expect(holdPuts()).toEqual([
      {
        hold_id: `${HASH}#owner#${owner}`,
        image_hash: HASH,
        holder: `owner#${owner}`,
        state: 'pending',
        registration_id: registration,
        expires_at: NOW.getTime() / 1000 + RETENTION_DAYS.uploads * 24 * 3600,
        created_at: NOW.toISOString(),
      },
    ]);
    // The photo is registered: declared type and size, not verified, no verdict.
    const [registered] = imageUpdates();
    expect(registered.Key).toEqual({ image_hash: HASH });
    expect(registered.UpdateExpression).toMatch(/REMOVE .*#moderation\b/);
    expect(Object.values(registered.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['image/png', SIZE, false]),
    );
    // Kept as long as the upload it describes, counted from the first registration (if_not_exists).
    expect(registered.UpdateExpression).toMatch(/#expires_at = if_not_exists\(#expires_at, :v\d+\)/);
    expect(Object.values(registered.ExpressionAttributeValues ?? {})).toContain(
      NOW.getTime() / 1000 + RETENTION_DAYS.imageRecords * 24 * 3600,
    );
    // One upload and its bytes, counted in the day and the hour.
    expect(counterUpdates()).toEqual([
      ['uploads#2026-11-23', 1],
      ['uploads#2026-11-23T14', 1],
      ['upload-bytes#2026-11-23', SIZE],
      ['upload-bytes#2026-11-23T14', SIZE],
    ]);
  });

  test('a browser with a secret keeps it; each registration has a key of its own', async () => {
    const first = await register(me.cookies);
    const second = await register(me.cookies);
    expect([first.cookies, second.cookies]).toEqual([undefined, undefined]);
    expect(registrationOf(uploadUrl(first))).not.toBe(registrationOf(uploadUrl(second)));
    expect(holdPuts().map((h) => [h?.hold_id, h?.registration_id])).toEqual([
      [`${HASH}#owner#${me.owner}`, registrationOf(uploadUrl(first))],
      [`${HASH}#owner#${me.owner}`, registrationOf(uploadUrl(second))],
    ]);
  });

  test('a malformed secret is replaced', async () => {
    for (const cookies of [['tz_owner=short'], [`tz_owner=${'a'.repeat(42)}=`]]) {
      expect((await register(cookies)).cookies).toHaveLength(1);
    }
  });
});

describe("the owner's photo", () => {
  beforeEach(() => storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner')));

  test('a judged copy still stored as judged: exists, nothing counted or written', async () => {
    storeItem(ddb, 'images', allowed());
    storedCopy();
    expect(answer('upload-image', await register(me.cookies))).toEqual({ status: 200, body: { status: 'exists' } });
    expect(counterUpdates()).toEqual([]);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  test('a judged copy that changed is removed and uploaded afresh, its verdict reset', async () => {
    storeItem(ddb, 'images', allowed());
    s3.on(HeadObjectCommand, { Key: mediaKey.upload(HASH) })
      .resolvesOnce({ ETag: '"swapped"', ContentLength: SIZE })
      .rejects(headMissing());
    uploadUrl(await register(me.cookies));
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([mediaKey.upload(HASH)]);
    expect(imageUpdates()).toHaveLength(1);
    expect(holdPuts()).toEqual([expect.objectContaining({ state: 'pending' })]);
  });

  test('a copy not judged yet: exists once its bytes are checked (read once, then recorded as verified)', async () => {
    storedCopy();
    storeItem(ddb, 'images', image());
    expect(answer('upload-image', await register(me.cookies)).body).toEqual({ status: 'exists' });
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);

    storeItem(ddb, 'images', image({ verified: false }));
    s3.on(GetObjectCommand, { Key: mediaKey.upload(HASH) }).resolves({
      ETag: ETAG,
      ContentLength: SIZE,
      Body: objectBody(PHOTO.bytes),
    });
    expect(answer('upload-image', await register(me.cookies)).body).toEqual({ status: 'exists' });
    expect(Object.values(imageUpdates()[0].ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining([true, 'image/png', 1024, 768]),
    );
    expect(counterUpdates()).toEqual([]);
  });

  test('a stored copy that is not the photo is removed and asked for again', async () => {
    storeItem(ddb, 'images', image({ verified: false }));
    s3.on(HeadObjectCommand, { Key: mediaKey.upload(HASH) })
      .resolvesOnce({ ETag: ETAG, ContentLength: SIZE })
      .resolvesOnce({ ETag: ETAG, ContentLength: SIZE })
      .rejects(headMissing());
    s3.on(GetObjectCommand, { Key: mediaKey.upload(HASH) }).resolves({
      ETag: ETAG,
      ContentLength: SIZE,
      Body: objectBody(pngPhoto(1024, 768, 'other bytes').bytes),
    });
    uploadUrl(await register(me.cookies));
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([mediaKey.upload(HASH)]);
    expect(holdPuts()).toEqual([expect.objectContaining({ state: 'pending' })]);
  });
});

describe('knowing the hash proves nothing', () => {
  test("a stranger registering the owner's judged photo gets an upload URL of their own; the photo is untouched", async () => {
    storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
    storeItem(ddb, 'images', allowed());
    storedCopy();
    for (const cookies of [undefined, stranger.cookies]) {
      const res = await register(cookies);
      expect(registrationOf(uploadUrl(res))).toMatch(RANDOM_ID_RE);
    }
    // No reset of the owner's record and verdict, no delete of the stored copy.
    expect(imageUpdates()).toEqual([]);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
    expect(holdPuts().map((h) => h?.state)).toEqual(['pending', 'pending']);
    expect(holdPuts()[1]?.hold_id).toBe(`${HASH}#owner#${stranger.owner}`);
  });
});

describe('a pending registration', () => {
  const REG = 'registration-0000000a';
  const proof = mediaKey.proof(REG);
  beforeEach(() => storeItem(ddb, 'holds', ownerHold(HASH, me, 'pending', REG)));

  test('whose bytes were uploaded: they become the stored copy, and the photo exists', async () => {
    s3.on(HeadObjectCommand, { Key: proof }).resolves({ ETag: '"proof"', ContentLength: SIZE });
    s3.on(GetObjectCommand, { Key: proof }).resolves({
      ETag: '"proof"',
      ContentLength: SIZE,
      Body: objectBody(PHOTO.bytes),
    });
    // Missing until the proof is copied there.
    s3.on(HeadObjectCommand, { Key: mediaKey.upload(HASH) })
      .rejectsOnce(headMissing())
      .resolves({ ETag: '"copy"', ContentLength: SIZE, ChecksumSHA256: hashChecksum(HASH) });
    // As the table reads once the check is recorded.
    storeItem(ddb, 'images', image());
    expect(answer('upload-image', await register(me.cookies)).body).toEqual({ status: 'exists' });
    expect(s3.commandCalls(CopyObjectCommand)[0].args[0].input).toMatchObject({
      CopySource: `media/${proof}`,
      Key: mediaKey.upload(HASH),
    });
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([proof]);
    expect(holdPuts()).toEqual([expect.objectContaining({ hold_id: `${HASH}#owner#${me.owner}`, state: 'owner' })]);
    expect(counterUpdates()).toEqual([]);
  });

  test('whose bytes are not the photo, none stored: they are removed, judged invalid, and asked for again', async () => {
    const other = pngPhoto(1024, 768, 'other bytes').bytes;
    s3.on(HeadObjectCommand, { Key: proof }).resolves({ ETag: '"proof"', ContentLength: other.length });
    s3.on(GetObjectCommand, { Key: proof }).resolves({
      ETag: '"proof"',
      ContentLength: other.length,
      Body: objectBody(other),
    });
    storeItem(ddb, 'images', image({ verified: false, moderation: 'invalid' }));
    const url = uploadUrl(await register(me.cookies));
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([proof]);
    expect(s3.commandCalls(CopyObjectCommand)).toHaveLength(0);
    const [verdict] = imageUpdates();
    expect(Object.values(verdict.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['invalid', ['Uploaded bytes do not match the image hash.']]),
    );
    // The visitor's own (bad) upload: their hold, and a fresh registration to upload the photo itself.
    expect(holdPuts().map((h) => [h?.state, h?.registration_id])).toEqual([
      ['owner', undefined],
      ['pending', registrationOf(url)],
    ]);
  });

  test('whose bytes never came: a new registration replaces it', async () => {
    const url = uploadUrl(await register(me.cookies));
    expect(registrationOf(url)).not.toBe(REG);
    expect(holdPuts()).toEqual([expect.objectContaining({ state: 'pending', registration_id: registrationOf(url) })]);
  });
});

describe('past the global caps: 429 with Retry-After, and nothing registered', () => {
  test('uploads of the day: come back tomorrow; a new browser still gets its secret', async () => {
    ddb
      .on(UpdateCommand, { TableName: 'counters', Key: { counter_id: 'uploads#2026-11-23' } })
      .rejects(conditionFailed());
    const res = await register();
    expect(failure(res)).toEqual({
      status: 429,
      body: { detail: "We're very busy right now. Please try again in 10 hours." },
    });
    expect(res.headers?.['retry-after']).toBe(String(9.5 * 3600));
    expect(res.cookies?.[0]).toMatch(/^tz_owner=/);
    expect(holdPuts()).toEqual([]);
    expect(imageUpdates()).toEqual([]);
  });

  test('upload bytes of the hour: what was taken is given back', async () => {
    ddb
      .on(UpdateCommand, { TableName: 'counters', Key: { counter_id: 'upload-bytes#2026-11-23T14' } })
      .rejects(conditionFailed());
    const res = await register(me.cookies);
    expect(failure(res)).toEqual({
      status: 429,
      body: { detail: "We're very busy right now. Please try again in 30 minutes." },
    });
    expect(res.cookies).toBeUndefined();
    expect(counterUpdates()).toEqual([
      ['uploads#2026-11-23', 1],
      ['uploads#2026-11-23T14', 1],
      ['upload-bytes#2026-11-23', SIZE],
      ['upload-bytes#2026-11-23T14', SIZE],
      ['uploads#2026-11-23', -1],
      ['uploads#2026-11-23T14', -1],
      ['upload-bytes#2026-11-23', -SIZE],
    ]);
    expect(holdPuts()).toEqual([]);
  });
});

test('a bad body is a 400 that says why, before any secret, count or record; a body not sent as JSON a 415', async () => {
  const hashRule = 'image_hash must be a SHA-256 hash (64 lowercase hex characters).';
  const sizeRule = 'file_size must be the file size in bytes.';
  const ok = { image_hash: HASH, file_type: 'image/png', file_size: SIZE };
  for (const [body, detail] of [
    [{}, hashRule],
    [{ ...ok, image_hash: 'ABC' }, hashRule],
    [{ ...ok, image_hash: 'A'.repeat(64) }, hashRule],
    [{ ...ok, file_type: 'image/gif' }, 'Only JPG/PNG files are allowed'],
    [{ ...ok, file_type: undefined }, 'Only JPG/PNG files are allowed'],
    [{ ...ok, file_size: MAX_FILE_BYTES }, 'File size must be less than 10MB'],
    [{ ...ok, file_size: 64 * 1024 * 1024 }, 'File size must be less than 10MB'],
    ...[undefined, 0, -1, 1.5, '12'].map((file_size) => [{ ...ok, file_size }, sizeRule] as const),
    ['not json', 'Request body is not valid JSON.'],
    [[1, 2], 'Request body must be a JSON object.'],
  ] as const) {
    const res = await register(undefined, body);
    expect(failure(res)).toEqual({ status: 400, body: { detail } });
    expect(res.cookies).toBeUndefined();
  }
  const plain = httpEvent('POST /api/upload-image', { body: ok, headers: { 'content-type': 'text/plain' } });
  expect(failure(await handler(plain))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
  expect(s3.calls()).toHaveLength(0);
});
