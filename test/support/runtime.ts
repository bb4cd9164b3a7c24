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
  const runtime = await startLocalRuntime({ ...opts, port: 0, dataDir, paymentMode: opts.paymentMode ?? 'simulated' });
  return Object.assign(runtime, { dataDir });
}
