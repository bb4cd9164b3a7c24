import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type LocalRuntimeOptions, startLocalRuntime } from '../../local/runtime';

export * from './api-client';

/** Starts the whole local runtime on a free port with its own data directory (other options passed through). */
export async function startTestRuntime(
  opts: Omit<LocalRuntimeOptions, 'port'> = {},
): Promise<Awaited<ReturnType<typeof startLocalRuntime>> & { dataDir: string }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-test-'));
  // Warm before the test meets it, as `npm start` warms: the moderation model and the functions' code load on the
  // runtime's thread, and a Lambda invoked meanwhile would have that time counted against its timeout (a GET
  // /api/jobs timed out at 15 s that way on a loaded machine).
  const runtime = await startLocalRuntime({
    warm: true,
    ...opts,
    port: 0,
    dataDir,
    paymentMode: opts.paymentMode ?? 'simulated',
  });
  await runtime.warmed();
  return Object.assign(runtime, { dataDir });
}
