import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running one of local/'s modules: `<file>.js` when bundled, else its TypeScript source through tsx
 * (npm start, tests), as engine/engine-worker.ts does for the engine's threads.
 */
export function startWorkerThread(file: string, workerData?: unknown): Worker {
  const js = `${file}.js`;
  if (fs.existsSync(js)) return new Worker(js, { workerData });
  const ts = `${file}.ts`;
  if (!fs.existsSync(ts)) throw new Error(`No worker module ${path.basename(file)} (.js or .ts)`);
  const boot = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(ts)});`;
  return new Worker(boot, { eval: true, workerData });
}
