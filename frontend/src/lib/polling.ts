/** Polling primitives. Pure (timers injected), so they are unit-testable. */
import { JobNotFoundError, type JobStatus } from './api';

export const JOB_POLL_MS = 2000;
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
 * Polls a job every `intervalMs` until it reports 'SUCCESS'. Other values keep polling (they are not
 * shown); read errors are only logged and polling continues; a 404 (JobNotFoundError) stops it by
 * rethrowing; aborting the signal (leaving the screen) rejects with an AbortError.
 */
export async function pollJobUntilSuccess(
  read: (signal?: AbortSignal) => Promise<JobStatus>,
  opts: { intervalMs?: number; signal?: AbortSignal; log?: (msg: string, err: unknown) => void } = {},
): Promise<void> {
  const { intervalMs = JOB_POLL_MS, signal, log = (m, e) => console.error(m, e) } = opts;
  for (;;) {
    if (signal?.aborted) throw abortError();
    try {
      const status = await read(signal);
      if (status === 'SUCCESS') return;
    } catch (err) {
      if (err instanceof JobNotFoundError) throw err;
      if (signal?.aborted) throw abortError();
      log('Job status poll failed', err);
    }
    await sleep(intervalMs, signal);
  }
}
