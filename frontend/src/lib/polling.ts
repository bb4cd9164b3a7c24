/** Polling primitives. Pure (timers injected), so they are unit-testable. */

import { JOB_POLL_MS } from '../../../domain/job-polling';
import { JobNotFoundError, type JobStatus } from './api';

/** The style step's jobs (spec: 2000 ms), defined beside the server's wait; each poll asks the server to hold it. */
export { JOB_POLL_MS };
export const GENERATION_POLL_MS = 5000;

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
 * Polls a job at once, then every `intervalMs` counted from the start of each poll, until it reports 'SUCCESS'. A
 * read may take most of the interval (the server holds a `wait=1` read until the job ends, domain/job-polling.ts): the
 * next poll starts `intervalMs` after the previous one started, or at once if the read took longer. Other values
 * keep polling (they are not shown); read errors are only logged and polling continues; a 404 (JobNotFoundError)
 * stops it by rethrowing; aborting the signal (leaving the screen) rejects with an AbortError.
 */
export async function pollJobUntilSuccess(
  read: (signal?: AbortSignal) => Promise<JobStatus>,
  opts: { intervalMs?: number; signal?: AbortSignal; log?: (msg: string, err: unknown) => void } = {},
): Promise<void> {
  const { intervalMs = JOB_POLL_MS, signal, log = (m, e) => console.error(m, e) } = opts;
  for (;;) {
    if (signal?.aborted) throw abortError();
    const started = Date.now();
    try {
      const status = await read(signal);
      if (status === 'SUCCESS') return;
    } catch (err) {
      if (err instanceof JobNotFoundError) throw err;
      if (signal?.aborted) throw abortError();
      log('Job status poll failed', err);
    }
    const rest = started + intervalMs - Date.now();
    if (rest > 0) await sleep(rest, signal);
  }
}
