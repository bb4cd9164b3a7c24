/**
 * The neural analysis runs in a thread of its own. tfjs-wasm grows its WebAssembly memory while it runs, and growing
 * detaches the memory's old ArrayBuffer; the first detach in a V8 isolate switches every typed-array access in
 * that isolate to a slower, checked path for the rest of its life (measured: each style 25-50 % slower after one
 * analysis in the same thread). In its own thread, the analysis leaves the threads that render styles untouched.
 * If the thread cannot start or dies, the analysis runs in the calling thread: same result, slower styles after.
 */
import { EngineWorker, spawnEngineWorker, WorkerLostError } from './engine-worker';
import { analyzeImage as analyzeHere } from './analysis';
import type { Analysis } from './analysis/types';
import type { Image8 } from './raster';

export interface AnalysisRequest {
  id: number;
  data: Uint8Array;
  width: number;
  height: number;
}

let thread: EngineWorker<AnalysisRequest, Analysis> | undefined;
let nextId = 1;

function current(warm: boolean): EngineWorker<AnalysisRequest, Analysis> | undefined {
  if (thread?.alive) return thread;
  let w: ReturnType<typeof spawnEngineWorker>;
  try {
    w = spawnEngineWorker('analysis-worker', { warm });
  } catch {
    w = undefined; // no worker support here
  }
  thread = w && new EngineWorker<AnalysisRequest, Analysis>(w, 'analysis thread lost, analysing in the calling thread');
  return thread;
}

/** The photo's analysis (people, faces) at the analysis size, computed in the analysis thread. */
export function analyzeImage(img: Image8): Promise<Analysis> {
  const t = current(false);
  if (!t) return analyzeHere(img);
  // a compact copy (a Buffer's view may sit in a larger pooled ArrayBuffer; transferring would detach it here)
  const req: AnalysisRequest = { id: nextId++, data: new Uint8Array(img.data), width: img.width, height: img.height };
  // a photo the thread held when it died is analysed here instead: nothing is lost
  return t.run(req).catch((err: unknown) => (err instanceof WorkerLostError ? analyzeHere(img) : Promise.reject(err)));
}

/** Start the analysis thread and load its models now (a server starting up); resolves when they are loaded. */
export async function warmAnalysisThread(): Promise<void> {
  await current(true)?.awaitReady();
}

/** Stop the analysis thread (tests, graceful shutdown). The next analysis starts a new one. */
export async function closeAnalysisThread(): Promise<void> {
  const t = thread;
  thread = undefined;
  await t?.close();
}
