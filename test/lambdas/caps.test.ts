import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { GENERATIVE_ERRORS } from '../../domain/wiring';
import { ddb } from '../../lambdas/lib/aws';
import { busyAnswer, capCounterId, capUsed, giveBack, secondsToNextWindow, takeCaps } from '../../lambdas/lib/caps';

/**
 * The global caps (lambdas/lib/caps.ts) against a mocked DynamoDB that runs their conditional updates on a map, as
 * DynamoDB would: an ADD that passes `count <= :room` (or finds no row), else ConditionalCheckFailedException.
 */
const rows = new Map<string, number>();
const dynamo = mockClient(ddb());

function runUpdate(input: UpdateCommand['input']) {
  const id = input.Key!.counter_id as string;
  const values = input.ExpressionAttributeValues ?? {};
  const addedPh = /ADD #count (:\w+)/.exec(input.UpdateExpression ?? '')![1];
  const add = values[addedPh] as number;
  const count = rows.get(id);
  const condition = input.ConditionExpression ?? '';
  const ok = condition.includes(':room')
    ? count === undefined || count <= (values[':room'] as number)
    : count !== undefined && count >= (values[':n'] as number);
  if (!ok)
    throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
  rows.set(id, (count ?? 0) + add);
  return {};
}

const ENV_CAPS = {
  COUNTERS_TABLE: 'counters',
  UPLOADS_PER_HOUR: '2',
  UPLOADS_PER_DAY: '3',
  UPLOAD_MEGABYTES_PER_HOUR: '100',
  UPLOAD_MEGABYTES_PER_DAY: '100',
  GENERATIVE_PREVIEWS_PER_HOUR: '5',
  GENERATIVE_PREVIEWS_PER_DAY: '5',
  ENGINE_PREVIEWS_PER_HOUR: '5',
  ENGINE_PREVIEWS_PER_DAY: '5',
};

// makePreviews with its stores and renderers stood in: only the caps run for real (on the mocked DynamoDB).
const recorded: unknown[] = [];
let modelOutcome: () => Promise<unknown> = async () => ({ admitted: true, value: {} });
const engineCalls: string[][] = [];
jest.mock('../../lambdas/lib/moderation', () => ({
  allowedUpload: jest.fn(async () => ({ ok: true, record: { image_hash: 'h' } })),
  mapLimit: jest.requireActual('../../lambdas/lib/moderation').mapLimit,
}));
jest.mock('../../lambdas/lib/images', () => ({
  recordPreviews: jest.fn(async (_hash: string, outcome: unknown) => void recorded.push(outcome)),
}));
jest.mock('../../lambdas/lib/capacity', () => ({
  ...jest.requireActual('../../lambdas/lib/capacity'),
  withCapacity: jest.fn(async (_r: unknown, _h: unknown, _p: unknown, fn: () => Promise<unknown>) => ({
    admitted: true,
    value: await fn(),
  })),
}));
jest.mock('../../lambdas/lib/generative', () => ({ renderGenerative: jest.fn(() => modelOutcome()) }));
jest.mock('../../lambdas/lib/engine', () => ({
  renderOnEngine: jest.fn(async (req: { outputs: { style: string }[] }) => {
    engineCalls.push(req.outputs.map((o) => o.style));
    return { outputs: req.outputs };
  }),
}));
jest.mock('../../lambdas/lib/bedrock', () => ({ seedFor: () => 1 }));
jest.mock('../../lambdas/lib/renderer', () => ({
  ...jest.requireActual('../../lambdas/lib/renderer'),
  pendingPreviews: (_image: unknown, styles: string[]) => styles,
  rendererFor: (s: string) =>
    s === '3d'
      ? { kind: 'bedrock', id: 'bedrock:m', settings: { previewSize: 512 } }
      : { kind: 'engine', id: 'engine' },
}));

import { makePreviews } from '../../lambdas/lib/previews';

describe('global caps', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    rows.clear();
    recorded.length = 0;
    engineCalls.length = 0;
    dynamo.reset();
    dynamo.on(UpdateCommand).callsFake(runUpdate);
    dynamo.on(GetCommand).callsFake((input) => ({ Item: { count: rows.get(input.Key.counter_id) } }));
    Object.assign(process.env, ENV_CAPS, { MEDIA_BUCKET: 'media' });
  });
  afterAll(() => {
    process.env = saved;
  });

  // 2026-11-23 14:59:30 UTC: 30 s to the next hour, 9 h 0 min 30 s to the next day.
  const at = Date.UTC(2026, 10, 23, 14, 59, 30);
  const nextHour = Date.UTC(2026, 10, 23, 15, 0, 5);

  test('counted per UTC hour and per UTC day: the hour refuses first, the next hour takes again, then the day', async () => {
    expect((await takeCaps({ uploads: 1 }, at)).ok).toBe(true);
    expect((await takeCaps({ uploads: 1 }, at)).ok).toBe(true);
    expect(await takeCaps({ uploads: 1 }, at)).toEqual({
      ok: false,
      cap: 'uploads',
      window: 'hour',
      retryAfterSeconds: 30,
    });
    // The refused take gave back the day's unit it had taken.
    expect(rows.get(capCounterId('uploads', 'day', at))).toBe(2);
    expect(rows.get('uploads#2026-11-23T14')).toBe(2);

    expect((await takeCaps({ uploads: 1 }, nextHour)).ok).toBe(true);
    expect(await takeCaps({ uploads: 1 }, nextHour)).toEqual({
      ok: false,
      cap: 'uploads',
      window: 'day',
      retryAfterSeconds: secondsToNextWindow('day', nextHour),
    });
    expect(secondsToNextWindow('day', nextHour)).toBe(9 * 3600 - 5);
    expect(await capUsed('uploads', 'day', nextHour)).toBe(3);
    expect(await capUsed('uploads', 'hour', nextHour)).toBe(1);
  });

  test('several caps at once or none: bytes past their cap give back the upload already taken', async () => {
    const ok = await takeCaps({ uploads: 1, uploadBytes: 60_000_000 }, at);
    expect(ok.ok).toBe(true);
    const refused = await takeCaps({ uploads: 1, uploadBytes: 60_000_000 }, at);
    expect(refused).toMatchObject({ ok: false, cap: 'uploadBytes' });
    expect(await capUsed('uploads', 'day', at)).toBe(1);
    expect(await capUsed('uploads', 'hour', at)).toBe(1);
    expect(await capUsed('uploadBytes', 'day', at)).toBe(60_000_000);
    // A single request larger than the whole cap is refused without writing.
    expect(await takeCaps({ uploadBytes: 200_000_000 }, at)).toMatchObject({ ok: false, cap: 'uploadBytes' });
    // Given back exactly, never below zero.
    if (!ok.ok) throw new Error('taken above');
    await giveBack(ok);
    await giveBack(ok);
    expect(await capUsed('uploadBytes', 'day', at)).toBe(0);
  });

  test('a cap at 0 refuses everything; nothing asked takes nothing', async () => {
    process.env.UPLOADS_PER_DAY = '0';
    expect(await takeCaps({ uploads: 1 }, at)).toMatchObject({ ok: false, window: 'day' });
    expect(await takeCaps({ uploads: 0 }, at)).toEqual({ ok: true, rows: [] });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  test('a refusal answers 429 with Retry-After and a detail for the page, never a 5xx', () => {
    const res = busyAnswer({ ok: false, cap: 'moderation', window: 'hour', retryAfterSeconds: 30 });
    expect(res.statusCode).toBe(429);
    expect(res.headers?.['retry-after']).toBe('30');
    expect(JSON.parse(res.body)).toEqual({ detail: "We're very busy right now. Please try again in 1 minute." });
    const day = busyAnswer({ ok: false, cap: 'moderation', window: 'day', retryAfterSeconds: 9 * 3600 });
    expect(JSON.parse(day.body).detail).toBe("We're very busy right now. Please try again in 9 hours.");
  });

  describe('previews', () => {
    test('a preview the model refuses gives its unit back (and is remembered as refused)', async () => {
      modelOutcome = async () => {
        throw Object.assign(new Error('filtered'), { name: GENERATIVE_ERRORS.refused });
      };
      await makePreviews('h', { styles: ['3d'], budget: true });
      expect(await capUsed('generativePreviews', 'day')).toBe(0);
      expect(await capUsed('generativePreviews', 'hour')).toBe(0);
      expect(recorded).toEqual([expect.objectContaining({ refused: { '3d': 'bedrock:m' } })]);
    });

    test('a preview the model fails gives its unit back; one made keeps it', async () => {
      modelOutcome = async () => {
        throw Object.assign(new Error('boom'), { name: GENERATIVE_ERRORS.unavailable });
      };
      await makePreviews('h', { styles: ['3d'], budget: true });
      expect(await capUsed('generativePreviews', 'day')).toBe(0);
      modelOutcome = async () => ({});
      await makePreviews('h', { styles: ['3d'], budget: true });
      expect(await capUsed('generativePreviews', 'day')).toBe(1);
    });

    test("past the day's cap the tiles are paused for the day, past the hour's busy; no render is made", async () => {
      process.env.ENGINE_PREVIEWS_PER_DAY = '0';
      process.env.GENERATIVE_PREVIEWS_PER_HOUR = '0';
      modelOutcome = async () => {
        throw new Error('no model call expected');
      };
      const res = await makePreviews('h', { styles: ['comic', '3d'], budget: true });
      expect(res).toMatchObject({ styles: [], paused: ['comic'], busy: ['3d'] });
      expect(engineCalls).toEqual([]);
      expect(recorded).toEqual([
        expect.objectContaining({ paused: { day: expect.any(String), styles: ['comic'] }, busy: ['3d'] }),
      ]);
    });

    test("a paid order's previews are never counted nor refused", async () => {
      process.env.ENGINE_PREVIEWS_PER_DAY = '0';
      process.env.GENERATIVE_PREVIEWS_PER_DAY = '0';
      modelOutcome = async () => ({});
      const res = await makePreviews('h', { styles: ['comic', '3d'], budget: false });
      expect(res.styles.sort()).toEqual(['3d', 'comic']);
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    });
  });
});
