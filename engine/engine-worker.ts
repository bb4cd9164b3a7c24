import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Start one of the engine's worker threads: its bundled `<name>.js` beside this file (the container and bench
 * bundles), else the TypeScript source through tsx (dev, tests). Undefined when neither is here (a bundle that
 * did not ship the worker): the caller then does the work in its own thread.
 */
export function spawnEngineWorker(name: 'style-worker' | 'analysis-worker', workerData: unknown): Worker | undefined {
  const js = path.join(__dirname, `${name}.js`);
  if (fs.existsSync(js)) return new Worker(js, { workerData });
  const ts = path.join(__dirname, `${name}.ts`);
  if (!fs.existsSync(ts)) return undefined;
  const boot = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(ts)});`;
  return new Worker(boot, { eval: true, workerData });
}
