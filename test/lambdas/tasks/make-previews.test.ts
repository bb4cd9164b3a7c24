import '../../support/task-env';
import { AccessDeniedException, BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { DEFAULT_GENERATIVE } from '../../../domain/generative';
import { STYLE_IDS } from '../../../domain/styles';
import { ENGINE_ERRORS, METRICS, mediaKey } from '../../../domain/wiring';
import { ENGINE, minuteWindowId, semaphoreId } from '../../../lambdas/lib/capacity';
import { capCounterId, capLimit } from '../../../lambdas/lib/caps';
import type { ImageRecord } from '../../../lambdas/lib/images';
import type { JobRecord } from '../../../lambdas/lib/jobs';
import { PREVIEW_CAPACITY_WAIT_MS } from '../../../lambdas/lib/previews';
import { budgetDay } from '../../../lambdas/lib/renderer';
import { settings } from '../../../lambdas/lib/settings';
import { handler } from '../../../lambdas/tasks/make-previews';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { FakeBucket } from '../../support/fake-s3';
import { recordMetrics } from '../../support/metrics';
import {
  BUCKET,
  FakeEngine,
  MODEL_ID,
  modelAnswer,
  type Photo,
  photo,
  png,
  replaceUpload,
  storeAllowed,
} from '../../support/tasks';

/**
 * lambdas/tasks/make-previews.ts, the jobs machine's "Make previews": the style step's previews of an allowed photo
 * (every engine style in one engine call, one model call per generative style), taken from the free caps. A model
 * whose minute paid renders hold makes the job wait (CapacityBusy, the state's Retry) for PREVIEW_CAPACITY_WAIT_MS
 * from the job's creation, then the style is shown busy and the job succeeds.
 */
const tables = new FakeTables();
const bucket = new FakeBucket(BUCKET);
const engine = new FakeEngine(bucket);
const bedrock = mockClient(BedrockRuntimeClient);
const JOB_ID = '0b6d2f4e-3c1a-4f5e-9d8c-7b6a5f4e3d2c';
// Mid-minute, so the model's minute counter set below is the one the run reads.
const T0 = new Date('2026-03-02T10:00:30.000Z');

let p: Photo;
let drawn: Buffer;
beforeAll(async () => {
  [p, drawn] = await Promise.all([photo(), png(512, 410, '#40a060')]);
});
const ENGINE_STYLES = STYLE_IDS.filter((s) => !DEFAULT_GENERATIVE.includes(s));
/** The execution's input, as process-thumbnail starts it. */
const execution = (hash: string) => ({ kind: 'thumbnail', job_id: JOB_ID, image_hash: hash });
const run = () => handler(execution(p.hash));
const job = () => tables.get<JobRecord>('jobs', JOB_ID)!;
const image = () => tables.get<ImageRecord>('images', p.hash)!;
const capCount = (cap: 'enginePreviews' | 'generativePreviews', window: 'hour' | 'day') =>
  tables.get<{ count: number }>('counters', capCounterId(cap, window))?.count ?? 0;
const modelCalls = () => bedrock.commandCalls(InvokeModelCommand).length;

function storeJob(createdMsAgo: number, status: JobRecord['status'] = 'PENDING') {
  const created = new Date(Date.now() - createdMsAgo).toISOString();
  tables.put('jobs', {
    job_id: JOB_ID,
    kind: 'thumbnail',
    status,
    image_hashes: [p.hash],
    created_at: created,
    updated_at: created,
    expires_at: 0,
  } satisfies JobRecord);
}
/** Paid renders took the model's whole minute. */
const modelMinuteTaken = () =>
  tables.put('counters', { counter_id: minuteWindowId(MODEL_ID), count: settings.bedrockRequestsPerMinute });

beforeEach(() => {
  jest.useFakeTimers({ now: T0 });
  tables.reset();
  bucket.reset();
  engine.reset();
  bedrock.reset();
  bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn));
  storeAllowed(tables, bucket, p);
  storeJob(0);
});
afterEach(() => jest.useRealTimers());

test('every style previewed: one engine call, a model call per generative style, caps taken, the job SUCCESS', async () => {
  const out = await run();
  expect([...out.styles].sort()).toEqual([...STYLE_IDS].sort());
  expect(out).toMatchObject({ image_hash: p.hash, paused: [], busy: [] });
  expect(engine.renders).toHaveLength(1);
  expect(engine.renders[0]).toMatchObject({ kind: 'thumbnail', watermark: true });
  expect(engine.renders[0].outputs.map((o) => o.style)).toEqual(ENGINE_STYLES);
  expect(modelCalls()).toBe(DEFAULT_GENERATIVE.length);
  for (const style of STYLE_IDS) expect(bucket.has(mediaKey.preview(p.hash, style))).toBe(true);
  expect(image().previews?.sort()).toEqual([...STYLE_IDS].sort());
  for (const window of ['hour', 'day'] as const) {
    expect(capCount('enginePreviews', window)).toBe(1);
    expect(capCount('generativePreviews', window)).toBe(DEFAULT_GENERATIVE.length);
  }
  expect(job().status).toBe('SUCCESS');
  expect(tables.get<{ count: number }>('counters', semaphoreId(ENGINE))?.count).toBe(0);
});

test('run again: nothing is drawn twice, no cap taken twice', async () => {
  await run();
  expect((await run()).styles).toEqual([]);
  expect(engine.renders).toHaveLength(1);
  expect(modelCalls()).toBe(DEFAULT_GENERATIVE.length);
  expect(capCount('generativePreviews', 'day')).toBe(DEFAULT_GENERATIVE.length);
});

test("the model's minute is taken: CapacityBusy while the job is young (units given back), then shown busy", async () => {
  modelMinuteTaken();
  await expect(run()).rejects.toMatchObject({ name: 'CapacityBusy' });
  expect(modelCalls()).toBe(0);
  expect(capCount('generativePreviews', 'day')).toBe(0);
  // The engine previews are kept; the generative ones are in progress, not busy, for the page.
  expect(image().previews?.sort()).toEqual([...ENGINE_STYLES].sort());
  expect(image().previews_busy).toEqual([]);
  expect(job().status).toBe('STARTED');

  storeJob(PREVIEW_CAPACITY_WAIT_MS + 1000, 'STARTED');
  const out = await run();
  expect(out.busy.sort()).toEqual([...DEFAULT_GENERATIVE].sort());
  expect(image().previews_busy?.sort()).toEqual([...DEFAULT_GENERATIVE].sort());
  expect(image().previews_paused).toBeUndefined();
  expect(job().status).toBe('SUCCESS');

  // The minute passes: the next previews request asks the model, and keeps a unit for each preview made.
  tables.put('counters', { counter_id: minuteWindowId(MODEL_ID), count: 0 });
  storeJob(0);
  expect((await run()).styles.sort()).toEqual([...DEFAULT_GENERATIVE].sort());
  expect(modelCalls()).toBe(DEFAULT_GENERATIVE.length);
  expect(capCount('generativePreviews', 'day')).toBe(DEFAULT_GENERATIVE.length);
  expect(image().previews_busy).toEqual([]);
});

test("the day's generative previews are spent: those styles paused for the day, the engine's made", async () => {
  tables.put('counters', {
    counter_id: capCounterId('generativePreviews', 'day'),
    count: capLimit('generativePreviews', 'day'),
  });
  const out = await run();
  expect(out.paused.sort()).toEqual([...DEFAULT_GENERATIVE].sort());
  expect(image().previews_paused).toEqual({
    day: budgetDay(),
    styles: expect.arrayContaining([...DEFAULT_GENERATIVE]),
  });
  expect(modelCalls()).toBe(0);
  expect(engine.renders).toHaveLength(1);
  expect(job().status).toBe('SUCCESS');
});

test('a model refusing the photo is remembered (never asked again); one the account may not call is not', async () => {
  bedrock.on(InvokeModelCommand).resolves(modelAnswer(drawn, 'Filter reason: input image'));
  await run();
  expect(image().previews_refused).toEqual({ '3d': `bedrock:${MODEL_ID}`, anime: `bedrock:${MODEL_ID}` });
  expect(capCount('generativePreviews', 'day')).toBe(0); // a refused preview gives its unit back
  await run();
  expect(modelCalls()).toBe(DEFAULT_GENERATIVE.length);

  tables.put('images', { ...image(), previews_refused: {} });
  bedrock.on(InvokeModelCommand).rejects(new AccessDeniedException({ message: 'no access', $metadata: {} }));
  const metrics = recordMetrics();
  try {
    expect((await run()).styles).toEqual([]);
    expect(metrics.count(METRICS.modelMisconfigured)).toBe(DEFAULT_GENERATIVE.length);
  } finally {
    metrics.restore();
  }
  // Not held against the photo: asked again on the next request (a few minutes later: these calls counted too).
  expect(image().previews_refused).toEqual({});
  expect(image().previews_paused).toBeUndefined();
  expect(job().status).toBe('SUCCESS');
  jest.setSystemTime(T0.getTime() + 120_000);
  await run();
  expect(modelCalls()).toBe(DEFAULT_GENERATIVE.length * 3);
});

test('a throttled engine: EngineThrottled for the Retry, its unit given back, the model previews kept', async () => {
  engine.failNext(awsError('ThrottlingException', 'Rate exceeded'));
  await expect(run()).rejects.toMatchObject({ name: ENGINE_ERRORS.throttled });
  expect(capCount('enginePreviews', 'day')).toBe(0);
  expect(image().preview_renderers).toEqual({ '3d': `bedrock:${MODEL_ID}`, anime: `bedrock:${MODEL_ID}` });
  expect(job().status).toBe('STARTED');
});

test('a photo changed after its verdict: NotAllowed (the Catch fails the job), nothing drawn or taken', async () => {
  replaceUpload(bucket, p, await png(300, 300, '#ffffff'));
  await expect(run()).rejects.toMatchObject({ name: 'NotAllowed' });
  expect(engine.renders).toEqual([]);
  expect(modelCalls()).toBe(0);
  expect(capCount('enginePreviews', 'day')).toBe(0);
  expect(job().status).toBe('STARTED');
});
