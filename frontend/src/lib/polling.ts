/** Polling primitives. Pure (timers injected), so they are unit-testable. */
import { JobNotFoundError, type JobStatus } from './api';

export const JOB_POLL_MS = 2000;
export const GENERATION_POLL_MS = 5000;
/**
 * The style step's jobs: the first polls come quickly, as a warm moderation job with its engine previews ends in
 * about a second (`npm run bench jobs`) and a 2 s poll would add up to 2 s to the 2 s the previews are promised in;
 * a job still running after them is a slow one, polled at the steady JOB_POLL_MS.
 */
export const STYLE_STEP_QUICK_POLLS = { count: 24, intervalMs: 250 } as const;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): Error {
  const e = new Error('Polling aborted');
  e.name = 'AbortError';
  return e;
}

/**
 * Polls a job every `intervalMs` (after the `quick` polls, if given, at their own interval) until it reports
 * 'SUCCESS'. Other values keep polling (they are not shown); read errors are only logged and polling continues; a
 * 404 (JobNotFoundError) stops it by rethrowing; aborting the signal (leaving the screen) rejects with an AbortError.
 */
export async function pollJobUntilSuccess(
  read: (signal?: AbortSignal) => Promise<JobStatus>,
  opts: {
    intervalMs?: number;
    quick?: { count: number; intervalMs: number };
    signal?: AbortSignal;
    log?: (msg: string, err: unknown) => void;
  } = {},
): Promise<void> {
  const { intervalMs = JOB_POLL_MS, quick, signal, log = (m, e) => console.error(m, e) } = opts;
  for (let polls = 1; ; polls++) {
    if (signal?.aborted) throw abortError();
    try {
      const status = await read(signal);
      if (status === 'SUCCESS') return;
    } catch (err) {
      if (err instanceof JobNotFoundError) throw err;
      if (signal?.aborted) throw abortError();
      log('Job status poll failed', err);
    }
    await sleep(quick && polls <= quick.count ? quick.intervalMs : intervalMs, signal);
  }
}
