import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  acquireSlot,
  LEASE_MS,
  releaseSlot,
  shareOf,
  slotsHeld,
  takeModelRequest,
  withCapacity,
} from '../../lambdas/lib/capacity';
import type { Renderer } from '../../lambdas/lib/renderer';
import { S3RVER_CREDENTIALS, startDynamo } from '../../local/emulators';
import type { Running } from '../../local/serve';

/** Admission control against dynalite (the local DynamoDB): conditional UpdateItem only, as on AWS. */
describe('capacity', () => {
  let dynamo: Running;
  const saved = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-capacity-'));

  beforeAll(async () => {
    dynamo = await startDynamo(dataDir, [
      {
        name: 'counters',
        keySchema: [{ AttributeName: 'counter_id', KeyType: 'HASH' }],
        attributeDefinitions: [{ AttributeName: 'counter_id', AttributeType: 'S' }],
      },
    ]);
    Object.assign(process.env, {
      COUNTERS_TABLE: 'counters',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      ENGINE_MAX_CONCURRENCY: '2',
      BEDROCK_REQUESTS_PER_MINUTE: '4',
    });
  });
  afterAll(async () => {
    process.env = saved;
    await dynamo?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('paid work may use the whole limit, previews what a reserve of half leaves (at least one)', () => {
    expect([shareOf(10, 'paid'), shareOf(10, 'preview')]).toEqual([10, 5]);
    expect([shareOf(6, 'paid'), shareOf(6, 'preview')]).toEqual([6, 3]);
    expect([shareOf(1, 'paid'), shareOf(1, 'preview')]).toEqual([1, 1]);
  });

  test('a semaphore: never more holders than the limit, idempotent per holder, released slots taken again', async () => {
    expect(await acquireSlot('r1', 'a', 3, 'paid')).toBe(true);
    expect(await acquireSlot('r1', 'a', 3, 'paid')).toBe(true); // a retry of the same holder
    expect(await slotsHeld('r1')).toBe(1);
    // Previews stop at 2 of 3 (one kept for paid work); paid work takes the last.
    expect(await acquireSlot('r1', 'p', 3, 'preview')).toBe(true);
    expect(await acquireSlot('r1', 'p2', 3, 'preview')).toBe(false);
    expect(await acquireSlot('r1', 'b', 3, 'paid')).toBe(true);
    expect(await acquireSlot('r1', 'c', 3, 'paid')).toBe(false);
    expect(await slotsHeld('r1')).toBe(3);
    await releaseSlot('r1', 'a');
    await releaseSlot('r1', 'a'); // twice changes nothing
    expect(await slotsHeld('r1')).toBe(2);
    expect(await acquireSlot('r1', 'c', 3, 'paid')).toBe(true);
  });

  test('many at once never exceed the limit', async () => {
    const got = await Promise.all(Array.from({ length: 12 }, (_, i) => acquireSlot('r2', `h${i}`, 4, 'paid')));
    expect(got.filter(Boolean)).toHaveLength(4);
    expect(await slotsHeld('r2')).toBe(4);
  });

  test('a crashed holder cannot leak its slot: past its lease it is freed for the next', async () => {
    const t0 = 1_000_000;
    expect(await acquireSlot('r3', 'crashed', 1, 'paid', t0)).toBe(true);
    expect(await acquireSlot('r3', 'next', 1, 'paid', t0 + LEASE_MS - 1)).toBe(false);
    expect(await acquireSlot('r3', 'next', 1, 'paid', t0 + LEASE_MS + 1)).toBe(true);
    expect(await slotsHeld('r3')).toBe(1);
  });

  test("a model's requests per minute: paid up to the limit, previews up to their share, the last minute's requests carried over", async () => {
    const minute = 60_000 * 1000;
    const takes = [];
    for (let i = 0; i < 3; i++) takes.push(await takeModelRequest('m', 4, 'preview', minute));
    expect(takes).toEqual([true, true, false]);
    expect(await takeModelRequest('m', 4, 'paid', minute + 1)).toBe(true);
    expect(await takeModelRequest('m', 4, 'paid', minute + 2)).toBe(true);
    expect(await takeModelRequest('m', 4, 'paid', minute + 3)).toBe(false);
    // The next minute: the last one's 4 still count while they lie in the last 60 s (a sliding window, as AWS's).
    expect(await takeModelRequest('m', 4, 'paid', minute + 60_000)).toBe(false);
    expect(await takeModelRequest('m', 4, 'paid', minute + 90_000)).toBe(true); // half of them carried: 2 free
    expect(await takeModelRequest('m', 4, 'paid', minute + 90_001)).toBe(true);
    expect(await takeModelRequest('m', 4, 'paid', minute + 90_002)).toBe(false);
    // Two minutes on, nothing is carried over any more.
    expect(await takeModelRequest('m', 4, 'paid', minute + 180_000)).toBe(true);
  });

  test('withCapacity holds an engine slot only while the render runs, and gives it back when the render fails', async () => {
    const engine: Renderer = { kind: 'engine', id: 'engine' };
    let during = -1;
    const ok = await withCapacity(engine, 'x', 'paid', async () => {
      during = await slotsHeld('engine');
      return 7;
    });
    expect(ok).toEqual({ admitted: true, value: 7 });
    expect(during).toBe(1);
    await expect(
      withCapacity(engine, 'y', 'paid', async () => {
        throw new Error('model failed');
      }),
    ).rejects.toThrow('model failed');
    expect(await slotsHeld('engine')).toBe(0);
    // Full (ENGINE_MAX_CONCURRENCY 2): not admitted, nothing rendered.
    await acquireSlot('engine', 'h1', 2, 'paid');
    await acquireSlot('engine', 'h2', 2, 'paid');
    let ran = false;
    expect(await withCapacity(engine, 'z', 'paid', async () => (ran = true))).toEqual({ admitted: false });
    expect(ran).toBe(false);
  });
});
