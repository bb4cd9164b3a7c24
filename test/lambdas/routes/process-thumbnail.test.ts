import { createHash } from 'node:crypto';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { generativePresets } from '../../../domain/config';
import { RETENTION_DAYS } from '../../../domain/privacy';
import { STYLE_IDS } from '../../../domain/styles';
import { ENV } from '../../../domain/wiring';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { httpEvent } from '../../support/http-event';
import { answer, browser, failure, mockDdb, ownerHold, sdkEnv, storeItem, tableEnv } from '../../support/route-test';

/**
 * POST /api/process-thumbnail {image_hash}: a previews job for the owner of an allowed photo. Previews are made once
 * per (photo, style, renderer): when none is missing the job is done the moment it exists, without an execution.
 */
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:jobs';
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds', 'jobs'), { [ENV.jobsMachineArn]: MACHINE });
delete process.env[ENV.generativeStyles];
let handler: typeof import('../../../lambdas/routes/process-thumbnail')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/process-thumbnail'));
});

const ddb = mockDdb();
const sfn = mockClient(SFNClient);
const HASH = createHash('sha256').update('astronaut').digest('hex');
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');
const NOW = new Date('2026-11-23T14:30:00Z');

const image = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: HASH,
  file_type: 'image/png',
  registered_at: '2026-11-23T09:00:00.000Z',
  moderation: 'allowed',
  ...over,
});
const post = (body: unknown, cookies?: string[]) =>
  handler(httpEvent('POST /api/process-thumbnail', { body, cookies }));
const jobPuts = () => ddb.commandCalls(PutCommand, { TableName: 'jobs' }).map((c) => c.args[0].input.Item);
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
  sfn.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  sfn.on(StartExecutionCommand).callsFake(async (input) => ({ executionArn: `${MACHINE}:${input.name}` }));
  storeItem(ddb, 'holds', ownerHold(HASH, me, 'owner'));
  delete process.env[ENV.generativeStyles];
});
afterEach(() => jest.useRealTimers());

test('previews still to make: a PENDING job of the owner and an execution named after it', async () => {
  storeItem(ddb, 'images', image({ previews: ['comic'] }));
  const res = answer('process-thumbnail', await post({ image_hash: HASH }, me.cookies));
  expect(res.status).toBe(200);
  const jobId = res.body.job_id;
  expect(jobPuts()).toEqual([
    {
      job_id: jobId,
      kind: 'thumbnail',
      status: 'PENDING',
      image_hashes: [HASH],
      owner: me.owner,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      expires_at: NOW.getTime() / 1000 + RETENTION_DAYS.jobs * 24 * 3600,
    },
  ]);
  expect(ddb.commandCalls(PutCommand, { TableName: 'jobs' })[0].args[0].input.ConditionExpression).toBe(
    'attribute_not_exists(job_id)',
  );
  const [start] = sfn.commandCalls(StartExecutionCommand).map((c) => c.args[0].input);
  expect(start).toMatchObject({ stateMachineArn: MACHINE, name: jobId });
  expect(JSON.parse(start.input!)).toEqual({ kind: 'thumbnail', job_id: jobId, image_hash: HASH });
  // The execution is recorded on the job, which stays PENDING (never moved back from a final state).
  const [update] = ddb.commandCalls(UpdateCommand, { TableName: 'jobs' }).map((c) => c.args[0].input);
  expect(update.Key).toEqual({ job_id: jobId });
  expect(Object.values(update.ExpressionAttributeValues ?? {})).toEqual(
    expect.arrayContaining(['PENDING', `${MACHINE}:${jobId}`, 'SUCCESS', 'FAILURE']),
  );
});

test('every style previewed by its renderer (or paused today): the job is SUCCESS at once, no execution', async () => {
  storeItem(
    ddb,
    'images',
    image({
      previews: STYLE_IDS.filter((s) => s !== 'sketch'),
      previews_paused: { day: '2026-11-23', styles: ['sketch'] },
    }),
  );
  const res = answer('process-thumbnail', await post({ image_hash: HASH }, me.cookies));
  expect(jobPuts()).toEqual([expect.objectContaining({ job_id: res.body.job_id, status: 'SUCCESS', owner: me.owner })]);
  expect(sfn.calls()).toHaveLength(0);
  // Paused yesterday: today it is asked again.
  storeItem(
    ddb,
    'images',
    image({
      previews: STYLE_IDS.filter((s) => s !== 'sketch'),
      previews_paused: { day: '2026-11-22', styles: ['sketch'] },
    }),
  );
  await post({ image_hash: HASH }, me.cookies);
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
});

test("a preview made by another renderer than the style's current one is made again; a refusal is not asked again", async () => {
  process.env[ENV.generativeStyles] = JSON.stringify(generativePresets(['3d'], 'us-west-2'));
  // Every style previewed by the engine, before 3d was given to a model.
  storeItem(ddb, 'images', image({ previews: [...STYLE_IDS] }));
  await post({ image_hash: HASH }, me.cookies);
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
  // The model refused this photo: nothing is left to make.
  const model = `bedrock:${generativePresets(['3d'], 'us-west-2')['3d']!.modelId}`;
  storeItem(ddb, 'images', image({ previews: [...STYLE_IDS], previews_refused: { '3d': model } }));
  await post({ image_hash: HASH }, me.cookies);
  expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
  expect(jobPuts().map((j) => j?.status)).toEqual(['PENDING', 'SUCCESS']);
});

test('an execution that cannot be started ends the job FAILURE and answers 503', async () => {
  storeItem(ddb, 'images', image());
  sfn.on(StartExecutionCommand).rejects(new Error('Rate exceeded'));
  expect(failure(await post({ image_hash: HASH }, me.cookies))).toEqual({
    status: 503,
    body: { detail: 'Thumbnail generation could not be started. Please try again.' },
  });
  const [update] = ddb.commandCalls(UpdateCommand, { TableName: 'jobs' }).map((c) => c.args[0].input);
  expect(update.Key).toEqual({ job_id: jobPuts()[0]?.job_id });
  expect(Object.values(update.ExpressionAttributeValues ?? {})).toEqual(
    expect.arrayContaining(['FAILURE', 'Could not start: Rate exceeded']),
  );
});

test('a photo that has not passed moderation gets no previews: 403, nothing started', async () => {
  for (const moderation of [undefined, 'rejected', 'invalid'] as const) {
    storeItem(ddb, 'images', image({ moderation }));
    expect(failure(await post({ image_hash: HASH }, me.cookies))).toEqual({
      status: 403,
      body: { detail: 'Image has not passed moderation.' },
    });
  }
  expect(jobPuts()).toEqual([]);
  expect(sfn.calls()).toHaveLength(0);
});

test('anyone but the owner, with the hash alone, gets the 404 of a photo never uploaded, and starts nothing', async () => {
  storeItem(ddb, 'images', image());
  expect(failure(await post({ image_hash: UNKNOWN }, me.cookies))).toEqual(notFound(UNKNOWN));
  for (const cookies of [undefined, stranger.cookies])
    expect(failure(await post({ image_hash: HASH }, cookies))).toEqual(notFound(HASH));
  storeItem(ddb, 'holds', ownerHold(HASH, stranger, 'pending', 'reg-of-the-stranger00'));
  expect(failure(await post({ image_hash: HASH }, stranger.cookies))).toEqual(notFound(HASH));
  expect(jobPuts()).toEqual([]);
  expect(sfn.calls()).toHaveLength(0);
});

test('a bad body is a 400 that says why; a body not sent as JSON a 415', async () => {
  const hashRule = 'image_hash must be a SHA-256 hash (64 lowercase hex characters).';
  for (const [body, detail] of [
    [{}, hashRule],
    [{ image_hash: 'abc' }, hashRule],
    [{ image_hash: 7 }, hashRule],
    ['{', 'Request body is not valid JSON.'],
    [[HASH], 'Request body must be a JSON object.'],
  ] as const) {
    expect(failure(await post(body, me.cookies))).toEqual({ status: 400, body: { detail } });
  }
  const plain = httpEvent('POST /api/process-thumbnail', {
    body: { image_hash: HASH },
    cookies: me.cookies,
    headers: { 'content-type': 'text/plain' },
  });
  expect(failure(await handler(plain))).toEqual({
    status: 415,
    body: { detail: 'Send the request body as application/json.' },
  });
  expect(ddb.calls()).toHaveLength(0);
});
