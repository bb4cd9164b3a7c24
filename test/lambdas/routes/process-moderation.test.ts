import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { ENV, mediaKey } from '../../../domain/wiring';
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
 * POST /api/process-moderation {image_hashes}: a moderation job for the photos' owner. A verdict still bound to the
 * stored object is reused (the job is done at once, no execution, no model call); the others are counted against the
 * global cap and moderated by an execution of the jobs machine. A pending registration whose bytes are now uploaded
 * is confirmed here (the style step's first call after the upload).
 */
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:jobs';
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds', 'jobs', 'counters'), {
  [ENV.jobsMachineArn]: MACHINE,
  [ENV.mediaBucket]: 'media',
});
delete process.env[ENV.moderationImagesPerHour];
delete process.env[ENV.moderationImagesPerDay];
let handler: typeof import('../../../lambdas/routes/process-moderation')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/process-moderation'));
});

const ddb = mockDdb();
const s3 = mockClient(S3Client);
const sfn = mockClient(SFNClient);
const PHOTO = pngPhoto(1024, 768);
const OTHER = pngPhoto(800, 600);
const HASH = PHOTO.hash;
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');
/** 14:30 UTC: the day's window ends in 9.5 hours, the hour's in 30 minutes. */
const NOW = new Date('2026-11-23T14:30:00Z');
const DAY_ROW = 'moderation-images#2026-11-23';
const HOUR_ROW = 'moderation-images#2026-11-23T14';
const ETAG = '"etag-of-the-judged-object"';

const image = (hash: string, over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: hash,
  file_type: 'image/png',
  registered_at: '2026-11-23T09:00:00.000Z',
  verified: true,
  ...over,
});
/** A verdict bound to the object it judged. */
const judged = (hash: string, moderation: 'allowed' | 'rejected', bytes: Buffer): ImageRecord =>
  image(hash, { moderation, object_etag: ETAG, object_size: bytes.length });
/** The stored copy of a photo, as S3's HEAD describes it. */
const stored = (hash: string, bytes: Buffer, etag = ETAG) =>
  s3
    .on(HeadObjectCommand, { Key: mediaKey.upload(hash) })
    .resolves({ ETag: etag, ContentLength: bytes.length, ChecksumSHA256: hashChecksum(hash) });

const post = (body: unknown, cookies?: string[]) =>
  handler(httpEvent('POST /api/process-moderation', { body, cookies }));
const jobPuts = () => ddb.commandCalls(PutCommand, { TableName: 'jobs' }).map((c) => c.args[0].input.Item);
const counterUpdates = () =>
  ddb.commandCalls(UpdateCommand, { TableName: 'counters' }).map((c) => {
    const { Key, UpdateExpression, ExpressionAttributeValues: values } = c.args[0].input;
    const added = /ADD #count (:\w+)/.exec(UpdateExpression ?? '')?.[1] ?? '';
    return { row: Key?.counter_id, add: values?.[added] };
  });
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  for (const mock of [ddb, s3, sfn]) mock.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  s3.on(HeadObjectCommand).rejects(headMissing());
  s3.on(GetObjectCommand).rejects(getMissing());
  s3.on(CopyObjectCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
  sfn.on(StartExecutionCommand).callsFake(async (input) => ({ executionArn: `${MACHINE}:${input.name}` }));
  storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
  storeItem(ddb, 'holds', ownerHold(OTHER.hash, me, 'owner'));
});
afterEach(() => jest.useRealTimers());

describe('the owner starts moderation', () => {
  test('a photo without a verdict: one unit of the cap in both windows, a PENDING job, its execution', async () => {
    storeItem(ddb, 'images', image(HASH));
    const res = answer('process-moderation', await post({ image_hashes: [HASH] }, me.cookies));
    expect(res.status).toBe(200);
    expect(counterUpdates()).toEqual([
      { row: DAY_ROW, add: 1 },
      { row: HOUR_ROW, add: 1 },
    ]);
    expect(jobPuts()).toEqual([
      expect.objectContaining({
        job_id: res.body.job_id,
        kind: 'moderation',
        status: 'PENDING',
        image_hashes: [HASH],
        owner: me.owner,
      }),
    ]);
    const [start] = sfn.commandCalls(StartExecutionCommand).map((c) => c.args[0].input);
    expect(start).toMatchObject({ stateMachineArn: MACHINE, name: res.body.job_id });
    expect(JSON.parse(start.input!)).toEqual({ kind: 'moderation', job_id: res.body.job_id, image_hashes: [HASH] });
  });

  test('a pass still bound to its stored object and a refusal (kept without its photo): SUCCESS at once, no cap, no execution', async () => {
    storeItem(ddb, 'images', judged(HASH, 'allowed', PHOTO.bytes));
    storeItem(ddb, 'images', judged(OTHER.hash, 'rejected', OTHER.bytes));
    stored(HASH, PHOTO.bytes);
    for (let i = 0; i < 3; i++) {
      const res = answer('process-moderation', await post({ image_hashes: [HASH, OTHER.hash] }, me.cookies));
      expect(jobPuts().at(-1)).toMatchObject({ job_id: res.body.job_id, status: 'SUCCESS', owner: me.owner });
    }
    // One HEAD per call for the pass; the refusal needs no object.
    expect(s3.commandCalls(HeadObjectCommand)).toHaveLength(3);
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    expect(counterUpdates()).toEqual([]);
    expect(sfn.calls()).toHaveLength(0);
  });

  test('a verdict whose object changed or vanished is judged again: only that photo is counted', async () => {
    storeItem(ddb, 'images', judged(HASH, 'allowed', PHOTO.bytes));
    storeItem(ddb, 'images', judged(OTHER.hash, 'allowed', OTHER.bytes));
    stored(HASH, PHOTO.bytes);
    stored(OTHER.hash, OTHER.bytes, '"another-etag"');
    await post({ image_hashes: [HASH, OTHER.hash] }, me.cookies);
    expect(counterUpdates()).toEqual([
      { row: DAY_ROW, add: 1 },
      { row: HOUR_ROW, add: 1 },
    ]);
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
    // Looking only: the changed object is left for the moderation task to judge (and remove).
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);

    s3.on(HeadObjectCommand, { Key: mediaKey.upload(OTHER.hash) }).rejects(headMissing());
    await post({ image_hashes: [HASH, OTHER.hash] }, me.cookies);
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(2);
  });

  test('the same hash twice is one photo', async () => {
    storeItem(ddb, 'images', image(HASH));
    await post({ image_hashes: [HASH, HASH] }, me.cookies);
    expect(jobPuts()[0]).toMatchObject({ image_hashes: [HASH] });
    expect(counterUpdates().map((u) => u.add)).toEqual([1, 1]);
  });

  test('an execution that cannot be started ends the job FAILURE, gives its units back and answers 503', async () => {
    storeItem(ddb, 'images', image(HASH));
    sfn.on(StartExecutionCommand).rejects(new Error('Rate exceeded'));
    expect(failure(await post({ image_hashes: [HASH] }, me.cookies))).toEqual({
      status: 503,
      body: { detail: 'Moderation could not be started. Please try again.' },
    });
    const update = ddb.commandCalls(UpdateCommand, { TableName: 'jobs' })[0].args[0].input;
    expect(Object.values(update.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['FAILURE', 'Could not start: Rate exceeded']),
    );
    // No photo goes to Rekognition: the cap counts nothing for them.
    expect(counterUpdates()).toEqual([
      { row: DAY_ROW, add: 1 },
      { row: HOUR_ROW, add: 1 },
      { row: DAY_ROW, add: -1 },
      { row: HOUR_ROW, add: -1 },
    ]);
  });
});

describe('past the global cap: 429 with Retry-After, nothing started', () => {
  beforeEach(() => storeItem(ddb, 'images', image(HASH)));

  test("the day's cap: come back tomorrow", async () => {
    ddb.on(UpdateCommand, { TableName: 'counters', Key: { counter_id: DAY_ROW } }).rejects(conditionFailed());
    const res = await post({ image_hashes: [HASH] }, me.cookies);
    expect(failure(res)).toEqual({
      status: 429,
      body: { detail: "We're very busy right now. Please try again in 10 hours." },
    });
    expect(res.headers?.['retry-after']).toBe(String(9.5 * 3600));
    expect(counterUpdates()).toEqual([{ row: DAY_ROW, add: 1 }]);
    expect(jobPuts()).toEqual([]);
    expect(sfn.calls()).toHaveLength(0);
  });

  test("the hour's cap: the day's unit is given back, come back next hour", async () => {
    ddb.on(UpdateCommand, { TableName: 'counters', Key: { counter_id: HOUR_ROW } }).rejects(conditionFailed());
    const res = await post({ image_hashes: [HASH] }, me.cookies);
    expect(failure(res)).toEqual({
      status: 429,
      body: { detail: "We're very busy right now. Please try again in 30 minutes." },
    });
    expect(res.headers?.['retry-after']).toBe('1800');
    expect(counterUpdates()).toEqual([
      { row: DAY_ROW, add: 1 },
      { row: HOUR_ROW, add: 1 },
      { row: DAY_ROW, add: -1 },
    ]);
    expect(jobPuts()).toEqual([]);
  });
});

describe('a registration whose bytes were uploaded is confirmed by its first call', () => {
  const REG = 'registration-0000000a';
  const proof = mediaKey.proof(REG);
  const uploaded = (bytes: Buffer) => {
    s3.on(HeadObjectCommand, { Key: proof }).resolves({ ETag: '"proof"', ContentLength: bytes.length });
    s3.on(GetObjectCommand, { Key: proof }).resolves({
      ETag: '"proof"',
      ContentLength: bytes.length,
      Body: objectBody(bytes),
    });
  };
  beforeEach(() => {
    storeItem(ddb, 'holds', ownerHold(HASH, me, 'pending', REG));
    storeItem(ddb, 'images', image(HASH, { verified: false }));
  });

  test('the first proof of a photo becomes its stored copy; the hold becomes an owner', async () => {
    uploaded(PHOTO.bytes);
    expect((await post({ image_hashes: [HASH] }, me.cookies)).statusCode).toBe(200);
    expect(s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input)).toEqual([
      expect.objectContaining({ Bucket: 'media', CopySource: `media/${proof}`, Key: mediaKey.upload(HASH) }),
    ]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([proof]);
    const hold = ddb.commandCalls(PutCommand, { TableName: 'holds' })[0].args[0].input.Item;
    expect(hold).toMatchObject({ hold_id: `${HASH}#owner#${me.owner}`, state: 'owner' });
    // The photo's size, read from its header, is recorded with its verification.
    const verified = ddb.commandCalls(UpdateCommand, { TableName: 'images' })[0].args[0].input;
    expect(Object.values(verified.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining([true, 'image/png', 1024, 768]),
    );
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
  });

  test('a later proof of a stored photo proves the same bytes: removed, not copied; the visitor owns it too', async () => {
    uploaded(PHOTO.bytes);
    stored(HASH, PHOTO.bytes);
    expect((await post({ image_hashes: [HASH] }, me.cookies)).statusCode).toBe(200);
    expect(s3.commandCalls(CopyObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([proof]);
    expect(ddb.commandCalls(PutCommand, { TableName: 'holds' })[0].args[0].input.Item).toMatchObject({
      state: 'owner',
    });
    // The stored copy's record (and verdict) is the first owner's: left as it is.
    expect(ddb.commandCalls(UpdateCommand, { TableName: 'images' })).toHaveLength(0);
  });

  test('other bytes under the hash, where a good copy is stored: refused with why, removed, owning nothing', async () => {
    uploaded(OTHER.bytes);
    stored(HASH, PHOTO.bytes);
    expect(failure(await post({ image_hashes: [HASH] }, me.cookies))).toEqual({
      status: 400,
      body: { detail: `Photo ${HASH.slice(0, 12)}: Uploaded bytes do not match the image hash.` },
    });
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([proof]);
    expect(ddb.commandCalls(DeleteCommand, { TableName: 'holds' })[0].args[0].input.Key).toEqual({
      hold_id: `${HASH}#owner#${me.owner}`,
    });
    expect(ddb.commandCalls(UpdateCommand, { TableName: 'images' })).toHaveLength(0);
    expect(jobPuts()).toEqual([]);
  });

  test('other bytes where no copy is stored: the upload is judged invalid, and the visitor owns that verdict', async () => {
    uploaded(OTHER.bytes);
    expect((await post({ image_hashes: [HASH] }, me.cookies)).statusCode).toBe(200);
    const verdict = ddb.commandCalls(UpdateCommand, { TableName: 'images' })[0].args[0].input;
    expect(Object.values(verdict.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['invalid', ['Uploaded bytes do not match the image hash.']]),
    );
    expect(ddb.commandCalls(PutCommand, { TableName: 'holds' })[0].args[0].input.Item).toMatchObject({
      state: 'owner',
    });
  });

  test('not uploaded yet: still nobody', async () => {
    expect(failure(await post({ image_hashes: [HASH] }, me.cookies))).toEqual(notFound(HASH));
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });
});

test('anyone but the owner, with the hash alone, gets the 404 of a photo never uploaded, and starts nothing', async () => {
  storeItem(ddb, 'images', judged(HASH, 'allowed', PHOTO.bytes));
  stored(HASH, PHOTO.bytes);
  expect(failure(await post({ image_hashes: [UNKNOWN] }, me.cookies))).toEqual(notFound(UNKNOWN));
  for (const cookies of [undefined, stranger.cookies]) {
    expect(failure(await post({ image_hashes: [HASH] }, cookies))).toEqual(notFound(HASH));
  }
  // One photo not theirs spoils the request.
  storeItem(ddb, 'images', image(UNKNOWN));
  expect(failure(await post({ image_hashes: [HASH, UNKNOWN] }, me.cookies))).toEqual(notFound(UNKNOWN));
  // A hold on a photo whose record is gone is no photo either.
  storeItem(ddb, 'holds', ownerHold(OTHER.hash, me, 'owner'));
  expect(failure(await post({ image_hashes: [OTHER.hash] }, me.cookies))).toEqual(notFound(OTHER.hash));
  expect(jobPuts()).toEqual([]);
  expect(counterUpdates()).toEqual([]);
  expect(sfn.calls()).toHaveLength(0);
});

test('a bad body is a 400 that says why; a body not sent as JSON a 415', async () => {
  const list = 'image_hashes must be a non-empty list of image hashes.';
  const many = Array.from({ length: 51 }, (_, i) => createHash('sha256').update(String(i)).digest('hex'));
  for (const [body, detail] of [
    [{}, list],
    [{ image_hashes: [] }, list],
    [{ image_hashes: 'abc' }, list],
    [{ image_hashes: ['abc'] }, 'image_hashes must be a SHA-256 hash (64 lowercase hex characters).'],
    [{ image_hashes: many }, 'At most 50 images per request.'],
    ['{', 'Request body is not valid JSON.'],
  ] as const) {
    expect(failure(await post(body, me.cookies))).toEqual({ status: 400, body: { detail } });
  }
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const event = httpEvent('POST /api/process-moderation', {
      body: { image_hashes: [HASH] },
      cookies: me.cookies,
      headers: { 'content-type': type },
    });
    expect(failure(await handler(event))).toEqual({
      status: 415,
      body: { detail: 'Send the request body as application/json.' },
    });
  }
  expect(ddb.calls()).toHaveLength(0);
});
