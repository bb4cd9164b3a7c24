import '../../support/task-env';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JobRecord } from '../../../lambdas/lib/jobs';
import { handler } from '../../../lambdas/tasks/job-failed';
import { FakeTables } from '../../support/fake-dynamo';

/**
 * lambdas/tasks/job-failed.ts, the jobs machine's Catch (lib/pipelines.ts "Record job failure"): the job ends
 * FAILURE with a reason a person can read, whatever failed, and a job that already ended keeps its outcome.
 */

const tables = new FakeTables();
const JOB_ID = '0b6d2f4e-3c1a-4f5e-9d8c-7b6a5f4e3d2c';

const job = (status: JobRecord['status']): JobRecord => ({
  job_id: JOB_ID,
  kind: 'thumbnail',
  status,
  image_hashes: ['a'.repeat(64)],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  expires_at: 0,
});
const stored = () => tables.get<JobRecord>('jobs', JOB_ID)!;
/** The state's input: the execution's input with the Catch's error at $.error. */
const input = (error?: { Error?: string; Cause?: string }) => ({
  kind: 'thumbnail',
  job_id: JOB_ID,
  image_hash: 'a'.repeat(64),
  ...(error ? { error } : {}),
});

beforeEach(() => {
  tables.reset();
  tables.put('jobs', job('STARTED'));
});

test("a Lambda error: the job ends FAILURE with the function's own message", async () => {
  const cause = JSON.stringify({ errorType: 'NotAllowed', errorMessage: 'Image aaaaaaaaaaaa: not allowed', trace: [] });
  expect(await handler(input({ Error: 'NotAllowed', Cause: cause }))).toEqual({ recorded: true });
  expect(stored()).toMatchObject({ status: 'FAILURE', error: 'Image aaaaaaaaaaaa: not allowed' });
  expect(stored().updated_at).not.toBe(job('STARTED').updated_at);
});

test.each([
  ['a timeout: its plain-text cause', { Error: 'States.Timeout', Cause: 'Task timed out' }, 'Task timed out'],
  ['no cause: the error name', { Error: 'Sandbox.Timedout' }, 'Sandbox.Timedout'],
  ['a JSON cause without a message: the cause', { Error: 'X', Cause: '{"errorType":"X"}' }, '{"errorType":"X"}'],
  ['no error at all', undefined, 'Unknown failure'],
])('%s', async (_name, error, reason) => {
  expect(await handler(input(error))).toEqual({ recorded: true });
  expect(stored()).toMatchObject({ status: 'FAILURE', error: reason });
});

test('a job that already ended keeps its outcome: a late failure changes nothing and does not throw', async () => {
  tables.put('jobs', job('SUCCESS'));
  expect(await handler(input({ Error: 'States.Timeout', Cause: 'late' }))).toEqual({ recorded: false });
  expect(stored()).toEqual(job('SUCCESS'));
  // Run twice (a retried Catch): the first reason stays.
  tables.put('jobs', job('STARTED'));
  await handler(input({ Error: 'A', Cause: 'first' }));
  expect(await handler(input({ Error: 'B', Cause: 'second' }))).toEqual({ recorded: false });
  expect(stored()).toMatchObject({ status: 'FAILURE', error: 'first' });
});

test('a job record that is gone is not created again', async () => {
  expect(await handler({ ...input({ Error: 'E' }), job_id: '11111111-2222-4333-8444-555555555555' })).toEqual({
    recorded: false,
  });
  expect(tables.get('jobs', '11111111-2222-4333-8444-555555555555')).toBeUndefined();
});

test('no job id (an execution started without one): nothing is written', async () => {
  expect(await handler({ error: { Error: 'E' } })).toEqual({ recorded: false });
  expect(tables.stub.commandCalls(UpdateCommand)).toHaveLength(0);
});
