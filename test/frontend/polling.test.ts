import { JOB_WAIT_MS } from '../../domain/job-polling';
import { JobNotFoundError, type JobStatus } from '../../frontend/src/lib/api';
import { GENERATION_POLL_MS, JOB_POLL_MS, pollJobUntilSuccess } from '../../frontend/src/lib/polling';

describe('pollJobUntilSuccess', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('uses the spec intervals', () => {
    expect(JOB_POLL_MS).toBe(2000);
    expect(GENERATION_POLL_MS).toBe(5000);
  });

  it('polls every 2000 ms until SUCCESS, ignoring other values and logging read errors', async () => {
    const answers: Array<string | Error> = [
      'PENDING',
      'STARTED',
      new Error('Failed to get job status: boom'),
      'FAILURE',
      'SUCCESS',
    ];
    const read = jest.fn(async (): Promise<JobStatus> => {
      const a = answers.shift() as JobStatus | Error;
      if (a instanceof Error) throw a;
      return a;
    });
    const log = jest.fn();
    let done = false;
    const p = pollJobUntilSuccess(read, { log }).then(() => {
      done = true;
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1999);
    expect(read).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(2000 * 3);
    await p;
    expect(done).toBe(true);
    expect(read).toHaveBeenCalledTimes(5);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('stops on a 404 by rethrowing JobNotFoundError', async () => {
    const read = jest
      .fn()
      .mockResolvedValueOnce('PENDING')
      .mockRejectedValueOnce(new JobNotFoundError('Job j not found.'));
    const p = pollJobUntilSuccess(read, { log: jest.fn() });
    const assertion = expect(p).rejects.toThrow('Job j not found.');
    await jest.advanceTimersByTimeAsync(2000);
    await assertion;
    await jest.advanceTimersByTimeAsync(10000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('stops when the signal is aborted (leaving the screen)', async () => {
    const controller = new AbortController();
    const read = jest.fn(async (): Promise<JobStatus> => 'PENDING');
    const p = pollJobUntilSuccess(read, { signal: controller.signal });
    const assertion = expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await jest.advanceTimersByTimeAsync(2000);
    controller.abort();
    await assertion;
    await jest.advanceTimersByTimeAsync(10000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('counts 2000 ms from the start of each poll: a held (long-poll) read does not push the schedule back', async () => {
    // Each read is held 1800 ms by the server, as a wait=1 read of a running job is (JOB_WAIT_MS).
    const starts: number[] = [];
    const t0 = Date.now();
    const read = jest.fn(async (): Promise<JobStatus> => {
      starts.push(Date.now() - t0);
      await new Promise((r) => setTimeout(r, JOB_WAIT_MS));
      return starts.length < 4 ? 'STARTED' : 'SUCCESS';
    });
    let done = false;
    const p = pollJobUntilSuccess(read, { log: jest.fn() }).then(() => {
      done = true;
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1999);
    expect(starts).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 2000]);
    await jest.advanceTimersByTimeAsync(4000);
    expect(starts).toEqual([0, 2000, 4000, 6000]);
    expect(done).toBe(false);
    // The fourth read is answered SUCCESS when its job ends, before the next poll would start.
    await jest.advanceTimersByTimeAsync(JOB_WAIT_MS);
    await p;
    expect(done).toBe(true);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('a read slower than the interval is followed at once by the next', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    const controller = new AbortController();
    const read = jest.fn(async (): Promise<JobStatus> => {
      starts.push(Date.now() - t0);
      await new Promise((r) => setTimeout(r, 2500));
      return 'PENDING';
    });
    const p = pollJobUntilSuccess(read, { signal: controller.signal });
    const assertion = expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await jest.advanceTimersByTimeAsync(2499);
    expect(starts).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 2500]);
    await jest.advanceTimersByTimeAsync(2500);
    expect(starts).toEqual([0, 2500, 5000]);
    controller.abort();
    await jest.advanceTimersByTimeAsync(2500);
    await assertion;
    expect(read).toHaveBeenCalledTimes(3);
  });
});
