import type { LambdaHost } from './lambda-host';
import type { LocalSchedule } from './template';

/**
 * Plays EventBridge Scheduler for the template's schedules: each target function runs once at start (catching up on
 * whatever happened while the runtime was down) and then at the schedule's rate, with the schedule's input.
 * A run still going when its next one is due is not doubled up (a local simplification; the handlers are idempotent).
 */
export function startSchedules(opts: { schedules: LocalSchedule[]; lambdas: LambdaHost; log: (msg: string) => void }) {
  const running = new Map<string, Promise<unknown>>();
  const timers: NodeJS.Timeout[] = [];
  let closed = false;

  const run = (s: LocalSchedule): Promise<unknown> => {
    const current = running.get(s.logicalId);
    if (current) return current;
    const p = opts.lambdas
      .invoke(s.functionId, s.input)
      .catch((err: Error) => {
        if (!closed) opts.log(`Scheduled ${s.functionId} failed: ${err.message}`);
        return { error: err.message };
      })
      .finally(() => running.delete(s.logicalId));
    running.set(s.logicalId, p);
    return p;
  };

  for (const s of opts.schedules) {
    void run(s);
    const timer = setInterval(() => void run(s), s.periodMs);
    timer.unref();
    timers.push(timer);
  }

  return {
    /** Runs every schedule's target now (or joins the run in progress); resolves with their results (tests). */
    runAll: () => Promise.all(opts.schedules.map(run)),
    /** Stops the timers and waits up to `graceMs` for runs in progress, which still use the other services. */
    async close(graceMs = 10_000) {
      closed = true;
      for (const t of timers) clearInterval(t);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running.values()]),
        new Promise((r) => (timer = setTimeout(r, graceMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
