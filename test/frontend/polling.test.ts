import { JobNotFoundError, type JobStatus } from '../../frontend/src/lib/api';
import {
  GENERATION_POLL_MS,
  JOB_POLL_MS,
  pollJobUntilSuccess,
  STYLE_STEP_QUICK_POLLS,
} from '../../frontend/src/lib/polling';

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

  it('polls quickly for the first `quick` polls, then at the steady interval', async () => {
    const read = jest.fn(async (): Promise<JobStatus> => 'PENDING');
    const controller = new AbortController();
    const p = pollJobUntilSuccess(read, { signal: controller.signal, quick: { count: 3, intervalMs: 250 } });
    const assertion = expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await jest.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(250 * 3);
    expect(read).toHaveBeenCalledTimes(4); // three quick polls after the first
    await jest.advanceTimersByTimeAsync(1999);
    expect(read).toHaveBeenCalledTimes(4);
    await jest.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(5);
    controller.abort();
    await assertion;
  });

  it("the style step's quick polls last a few seconds and are quicker than the steady ones", () => {
    expect(STYLE_STEP_QUICK_POLLS.intervalMs).toBeLessThan(JOB_POLL_MS);
    expect(STYLE_STEP_QUICK_POLLS.count * STYLE_STEP_QUICK_POLLS.intervalMs).toBeLessThanOrEqual(10_000);
  });
});
