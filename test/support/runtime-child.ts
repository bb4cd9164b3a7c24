/** The child's variable that holds chosen engine renders (runtime-process.ts); `holdRenders` sets it. */
export const HOLD_RENDERS_VAR = 'TOONZAP_TEST_HOLD_RENDERS';

/**
 * Starts the local runtime in a child process (see runtime-process.ts); `kill()` ends it without any clean-up.
 * `env` is added to the child's environment (e.g. TOONZAP_PAUSE_AT, see lambdas/lib/fault-points.ts);
 * `holdRenders`: engine calls writing an output key it matches are never answered (`held()` waits for one);
 * `line(re)` resolves with the first stdout line matching `re` (seen before or after the call); `logFile` gets all output.
 */
export async function startRuntimeProcess(
  dataDir: string,
  opts: { env?: Record<string, string>; logFile?: string; holdRenders?: RegExp } = {},
) {
  const { spawn } = await import('node:child_process');
  const path = await import('node:path');
  const script = path.join(__dirname, 'runtime-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], {
    cwd: path.join(__dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env, ...(opts.holdRenders ? { [HOLD_RENDERS_VAR]: opts.holdRenders.source } : {}) },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  if (opts.logFile) {
    const fs = await import('node:fs');
    const log = fs.createWriteStream(opts.logFile, { flags: 'a' });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  child.stdout.on('data', (c: Buffer) => {
    partial += c.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = (re: RegExp, timeoutMs = 90_000) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no stdout line matching ${re} in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)),
        timeoutMs,
      );
      const done = (l: string) => {
        clearTimeout(timer);
        resolve(l);
      };
      waiters.push({ re, resolve: done });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`runtime process exited before printing ${re}: ${stderr.slice(-2000)}`));
      });
    });
  };
  const info = JSON.parse(await line(/^\{"url"/, 240_000)) as {
    url: string;
    stripeUrl: string;
    mailUrl: string;
    env: Record<string, string>;
  };
  return {
    ...info,
    /** What the process wrote to stderr so far (its logs). */
    stderr: () => stderr,
    exited,
    line,
    /** Resolves when a run reached the TOONZAP_PAUSE_AT point and stopped there. */
    paused: (point: string, timeoutMs?: number) => line(new RegExp(`^\\{"paused_at":"${point}"\\}$`), timeoutMs),
    /** Resolves with the output key of the first engine call `holdRenders` held. */
    held: async (timeoutMs?: number) => (JSON.parse(await line(/^\{"held":/, timeoutMs)) as { held: string }).held,
    kill: () => {
      child.kill('SIGKILL');
      return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exited;
    },
    /** A clean stop (SIGTERM): the runtime closes its services. */
    stop: () => {
      child.kill('SIGTERM');
      return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exited;
    },
  };
}
