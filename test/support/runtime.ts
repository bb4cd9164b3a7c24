import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadNsfwModel } from '../../local/rekognition/nsfw-model';
import { type LocalRuntimeOptions, startLocalRuntime } from '../../local/runtime';

export * from './api-client';

/**
 * Starts the whole local runtime on a free port with its own data directory (other options passed through).
 * The moderation model is loaded before the test meets the runtime: it loads on the runtime's thread, and a Lambda
 * invoked meanwhile would have that time counted against its timeout (a GET /api/jobs timed out at 15 s that way on a
 * loaded machine). The rest loads on first use, as `warm: false` leaves it: a function's code is loaded outside its
 * timeout (local/lambda-host.ts), and the engine's threads are its own. `warm: true` warms everything, as `npm start`.
 */
export async function startTestRuntime(
  opts: Omit<LocalRuntimeOptions, 'port'> = {},
): Promise<Awaited<ReturnType<typeof startLocalRuntime>> & { dataDir: string }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-test-'));
  const [runtime] = await Promise.all([
    startLocalRuntime({ ...opts, port: 0, dataDir, paymentMode: opts.paymentMode ?? 'simulated' }),
    loadNsfwModel(),
  ]);
  await runtime.warmed();
  return Object.assign(runtime, { dataDir });
}
