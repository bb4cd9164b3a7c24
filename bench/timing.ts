/** Timing helpers of the benchmarks: best-of runs on a wall or CPU clock. */

/** The fastest run: interference only ever adds time. */
export function best(xs: number[]): number {
  return Math.min(...xs);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** A clock: started, it returns the function that reads the time since (ms). */
export type Clock = () => () => number;

/** Wall time. */
export const wall: Clock = () => {
  const t = performance.now();
  return () => performance.now() - t;
};

/**
 * CPU time (user + system of the whole process) of a single-threaded step: on a machine shared with other work this
 * is what the step costs, where wall time also counts the waits for a core.
 */
export const cpu: Clock = () => {
  const c = process.cpuUsage();
  return () => {
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000;
  };
};

/** `runs` timings of `fn` on `clock`, after `warmup` untimed runs. */
export async function timings(
  clock: Clock,
  runs: number,
  fn: () => unknown | Promise<unknown>,
  warmup: number,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const stop = clock();
    await fn();
    ts.push(stop());
  }
  return ts;
}

export const cpuIt = async (runs: number, fn: () => unknown | Promise<unknown>, warmup = 1) =>
  best(await timings(cpu, runs, fn, warmup));
export const timeIt = async (runs: number, fn: () => unknown | Promise<unknown>, warmup = 1) =>
  best(await timings(wall, runs, fn, warmup));
/** Best and median wall time: the best is what the code costs, the median how noisy the machine was. */
export const wallStats = async (runs: number, fn: () => unknown | Promise<unknown>, warmup = 1) => {
  const ts = await timings(wall, runs, fn, warmup);
  return { best: best(ts), median: median(ts) };
};
