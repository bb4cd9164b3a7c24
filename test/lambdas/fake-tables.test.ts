import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES, type TableName } from '../../domain/wiring';
import { ddb } from '../../lambdas/lib/aws';
import * as capacity from '../../lambdas/lib/capacity';
import * as caps from '../../lambdas/lib/caps';
import * as generations from '../../lambdas/lib/generations';
import { once } from '../../lambdas/lib/idempotency';
import * as images from '../../lambdas/lib/images';
import * as jobs from '../../lambdas/lib/jobs';
import { instrumented } from '../../lambdas/lib/observability';
import { startTables } from '../support/dynamo';
import { FakeTables } from '../support/fake-dynamo';
import { lambdaContext } from '../support/lambda-context';

/**
 * The task tests' in-memory DynamoDB (test/support/fake-dynamo.ts) answers as dynalite (the local DynamoDB) does:
 * the handlers' own writes (item transitions, the e-mail claim, refunds, the semaphore, the minute counters, the caps,
 * job statuses, verdicts and previews), each one's answer or error and the items they leave, run against both.
 */
const USED: TableName[] = ['generations', 'counters', 'jobs', 'images', 'events'];

async function scenario() {
  const out: unknown[] = [];
  const step = async (name: string, f: () => Promise<unknown>) => {
    try {
      out.push([name, await f()]);
    } catch (err) {
      out.push([name, 'error', (err as Error).name]);
    }
  };
  const comic = { image_hash: 'h1', style: 'comic' };
  const threeD = { image_hash: 'h2', style: '3d' };
  await ddb().send(
    new PutCommand({
      TableName: 'generations',
      Item: {
        generation_id: 'g',
        status: 'pending',
        items: { 'h1:comic': { ...comic, status: 'pending' }, 'h2:3d': { ...threeD, status: 'pending' } },
        done_count: 0,
        failed_count: 0,
      },
    }),
  );
  await ddb().send(new PutCommand({ TableName: 'jobs', Item: { job_id: 'j', status: 'PENDING' } }));
  for (const run of [1, 2]) {
    await step(`processing ${run}`, () => generations.markGenerationProcessing('g'));
    await step(`queued ${run}`, () => generations.markItemQueued('g', comic));
    await step(`quality try ${run}`, () => generations.countQualityTry('g', threeD));
  }
  await step('rendered', () => generations.markItemRendered('g', comic));
  await step('done', () => generations.finishItem('g', comic, { status: 'done' }));
  await step('failed after done', () => generations.finishItem('g', comic, { status: 'failed', error: 'x' }));
  await step('quality try when done', () => generations.countQualityTry('g', comic));
  // Powertools idempotency's records, through the plain client: taken, in progress, kept, replayed, dropped.
  let finish = () => {};
  const work = once({ name: 'scenario', key: 'id' }, async (input: { id: string; fail?: boolean }) => {
    if (input.fail) throw new Error('work failed');
    if (input.id === 'slow') await new Promise<void>((r) => (finish = r));
    return { done: input.id };
  });
  const invoke = (input: { id: string; fail?: boolean }) =>
    instrumented('scenario', lambdaContext(), {}, () => work(input));
  const slow = invoke({ id: 'slow' });
  await new Promise((r) => setTimeout(r, 200));
  await step('once in progress', () => invoke({ id: 'slow' }));
  finish();
  await step('once finished', () => slow);
  await step('once replayed', () => invoke({ id: 'slow' }));
  await step('once failing', () => invoke({ id: 'f', fail: true }));
  await step('once after a failure', () => invoke({ id: 'f' }));
  const refund = { currency: 'usd', items: 1, refund_ids: ['re'], refunded_at: 't' };
  await step('refund 70', () => generations.recordRefund('g', { ...refund, amount: 70 }));
  await step('refund 50', () => generations.recordRefund('g', { ...refund, amount: 50 }));
  await step('completed', () => generations.finishGeneration('g', 'completed', null));
  await step('failed after completed', () => generations.finishGeneration('g', 'failed', 'e'));
  await step('missing generation', () => generations.finishGeneration('nope', 'failed', 'e'));
  await step('sent', () => generations.markEmailSent('g', 'm'));
  for (const h of ['a', 'b', 'c'])
    await step(`slot ${h}`, () => capacity.acquireSlot('engine', `x:${h}`, 2, 'paid', 1000));
  await step('slot a again', () => capacity.acquireSlot('engine', 'x:a', 2, 'paid', 1000));
  await step('release a', () => capacity.releaseSlot('engine', 'x:a'));
  await step('release a again', () => capacity.releaseSlot('engine', 'x:a'));
  await step('stale', () => capacity.acquireSlot('engine', 'x:d', 2, 'paid', 1000 + capacity.LEASE_MS + 5));
  await step('held', () => capacity.slotsHeld('engine'));
  for (let i = 0; i < 3; i++) await step(`rpm ${i}`, () => capacity.takeModelRequest('m', 4, 'preview', 90_000_000));
  const taken = await caps.takeCap('generativePreviews', 5_000_000);
  out.push(['cap', taken]);
  if (taken.ok) for (let i = 0; i < 2; i++) await step(`give back ${i}`, () => caps.giveBack(taken));
  await step('cap used', () => caps.capUsed('generativePreviews', 'day', 5_000_000));
  await step('job started', () => jobs.setJobStatus('j', 'STARTED'));
  await step('job success', () => jobs.setJobStatus('j', 'SUCCESS', { error: undefined }));
  await step('job late failure', () => jobs.setJobStatus('j', 'FAILURE', { error: 'x' }));
  await step('missing job', () => jobs.setJobStatus('nope', 'FAILURE', { error: 'x' }));
  await step('allowed', () => images.recordModeration('h1', 'allowed', [], null, { etag: 'e', size: 3 }));
  await step('invalid', () => images.recordModeration('h1', 'invalid', ['r']));
  await step('previews', () => images.recordPreviews('h1', { made: { comic: 'engine' }, busy: ['3d'] }));
  await step('previews of no image', () => images.recordPreviews('zz', { made: { comic: 'engine' } }));
  await step('verified', () => images.markVerified('h1', { type: 'image/png', width: 3, height: 4 }));
  for (const [table, id] of [
    ['generations', 'g'],
    ['counters', 'semaphore#engine'],
    ['jobs', 'j'],
    ['images', 'h1'],
    ['images', 'zz'],
    // Powertools' key: the prefix, then the base64 MD5 of the key's JSON.
    ['events', `scenario#${createHash('md5').update(JSON.stringify('slow')).digest('base64')}`],
  ] as const) {
    out.push([table, id, (await ddb().send(new GetCommand({ TableName: table, Key: { [TABLES[table]]: id } }))).Item]);
  }
  // Times differ between the runs: compared by kind.
  return JSON.parse(
    JSON.stringify(out, (_k, v) =>
      typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)
        ? 'ISO time'
        : typeof v === 'number' && v > 1e9
          ? 'epoch'
          : v,
    ),
  );
}

test('the handlers’ writes answer and leave the same items on FakeTables as on dynalite', async () => {
  const tables = await startTables(USED);
  try {
    const onDynalite = await scenario();
    const fake = new FakeTables();
    expect(await scenario()).toEqual(onDynalite);
    // answered by the fake, not dynalite
    expect(fake.stub.calls().length).toBeGreaterThan(40);
    expect(fake.plain.calls().length).toBeGreaterThan(5);
  } finally {
    await tables.close();
  }
});
