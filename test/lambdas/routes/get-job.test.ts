import { createHash } from 'node:crypto';
import type { JobRecord, JobStatus } from '../../../lambdas/lib/jobs';

/**
 * GET /api/jobs/{job_id}?wait=1, long polling (domain/job-polling.ts): the handler with the jobs table as a stand-in
 * whose status the test moves, on fake timers, so "answered at once" and "after the cap" are counted, not timed.
 */
let stored: JobRecord | null = null;
const getJob = jest.fn(async (_id: string) => (stored ? { ...stored } : null));
const currentJobStatus = jest.fn(async (job: JobRecord) => job.status);
jest.mock('../../../lambdas/lib/jobs', () => ({
  getJob: (id: string) => getJob(id),
  currentJobStatus: (job: JobRecord) => currentJobStatus(job),
}));

import { JOB_WAIT_MS, JOB_WAIT_READ_MS } from '../../../domain/job-polling';
import { JOB_POLL_MS } from '../../../frontend/src/lib/polling';
import { handler } from '../../../lambdas/routes/get-job';
import { httpEvent } from '../../support/http-event';

const JOB_ID = '0b6d2f4e-3c1a-4f5e-9d8c-7b6a5f4e3d2c';
/** The owner secret of the browser that started the job (43 base64url characters), and its owner id. */
const SECRET = 'a'.repeat(43);
const OWNER = createHash('sha256').update(SECRET).digest('hex');

function job(status: JobStatus): JobRecord {
  return {
    job_id: JOB_ID,
    kind: 'moderation',
    status,
    image_hashes: [],
    owner: OWNER,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    expires_at: 0,
  };
}

function get(query?: Record<string, string>, jobId = JOB_ID, secret: string | null = SECRET) {
  return handler(
    httpEvent('GET /api/jobs/{job_id}', {
      pathParameters: { job_id: jobId },
      query,
      cookies: secret ? [`tz_owner=${secret}`] : undefined,
    }),
  );
}

/** The answer's promise, and whether it has settled yet. */
function track<T>(p: Promise<T>) {
  const state = { done: false, value: undefined as T | undefined };
  p.then((v) => {
    state.done = true;
    state.value = v;
  });
  return state;
}

describe('GET /api/jobs/{job_id} long polling', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    getJob.mockClear();
    currentJobStatus.mockClear();
  });
  afterEach(() => jest.useRealTimers());

  test('the cap stays under the page poll interval, and reads come several times within it', () => {
    expect(JOB_WAIT_MS).toBeLessThan(JOB_POLL_MS);
    expect(JOB_WAIT_READ_MS * 3).toBeLessThanOrEqual(JOB_WAIT_MS);
  });

  test('a job finishing during the wait is answered at its next read with SUCCESS', async () => {
    stored = job('STARTED');
    const answer = track(get({ wait: '1' }));
    await jest.advanceTimersByTimeAsync(JOB_WAIT_READ_MS * 2);
    expect(answer.done).toBe(false);
    stored = job('SUCCESS');
    await jest.advanceTimersByTimeAsync(JOB_WAIT_READ_MS);
    expect(answer.done).toBe(true);
    expect(answer.value).toMatchObject({ statusCode: 200, body: '"SUCCESS"' });
    // The lookup and three re-reads: nothing after the job ended.
    expect(getJob).toHaveBeenCalledTimes(4);
    // Every read went through the stale-job check.
    expect(currentJobStatus).toHaveBeenCalledTimes(4);
  });

  test('a job still running when the cap passes is answered as it is', async () => {
    stored = job('STARTED');
    const answer = track(get({ wait: '1' }));
    await jest.advanceTimersByTimeAsync(JOB_WAIT_MS - 1);
    expect(answer.done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(answer.done).toBe(true);
    expect(answer.value).toMatchObject({ statusCode: 200, body: '"STARTED"' });
    expect(getJob.mock.calls.length).toBeGreaterThan(JOB_WAIT_MS / JOB_WAIT_READ_MS - 1);
  });

  test('a failed job ends the wait too', async () => {
    stored = job('PENDING');
    const answer = track(get({ wait: '1' }));
    await jest.advanceTimersByTimeAsync(JOB_WAIT_READ_MS);
    stored = job('FAILURE');
    await jest.advanceTimersByTimeAsync(JOB_WAIT_READ_MS);
    expect(answer.value).toMatchObject({ statusCode: 200, body: '"FAILURE"' });
  });

  test('without wait (or wait=0) an unfinished job is answered at once', async () => {
    stored = job('PENDING');
    for (const query of [undefined, { wait: '0' }]) {
      getJob.mockClear();
      const answer = track(get(query));
      await jest.advanceTimersByTimeAsync(0);
      expect(answer.value).toMatchObject({ statusCode: 200, body: '"PENDING"' });
      expect(getJob).toHaveBeenCalledTimes(1);
    }
  });

  test('a bad wait value is a 400 that says what wait takes; an unknown job a 404, at once', async () => {
    stored = job('PENDING');
    for (const wait of ['yes', '2', '', '1,1']) {
      const res = await get({ wait });
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ detail: expect.stringMatching(/^wait must be 1 .* or 0/) });
    }
    expect(getJob).not.toHaveBeenCalled();
    stored = null;
    const res = await get({ wait: '1' });
    expect(res.statusCode).toBe(404);
    expect(getJob).toHaveBeenCalledTimes(1);
  });

  test('only the browser that started the job sees it: another owner, or none, is told it does not exist', async () => {
    stored = job('SUCCESS');
    expect((await get({}, JOB_ID, SECRET)).statusCode).toBe(200);
    for (const secret of ['b'.repeat(43), null, 'not-a-secret']) {
      const res = await get({}, JOB_ID, secret);
      expect([res.statusCode, JSON.parse(res.body)]).toEqual([
        404,
        { detail: `Job ${JOB_ID.slice(0, 40)} not found.` },
      ]);
    }
  });
});
