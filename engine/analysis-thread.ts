/**
 * The neural analysis runs in a thread of its own. tfjs-wasm grows its WebAssembly memory while it runs, and growing
 * detaches the memory's old ArrayBuffer; the first detach in a V8 isolate switches every typed-array access in
 * that isolate to a slower, checked path for the rest of its life (measured: each style 25-50 % slower after one
 * analysis in the same thread). In its own thread, the analysis leaves the threads that render styles untouched.
 * If the thread cannot start or dies, the analysis runs in the calling thread: same result, slower styles after.
 */
import type { Worker } from 'node:worker_threads';
import { spawnEngineWorker } from './engine-worker';
import { analyzeImage as analyzeHere } from './analysis';
import type { Analysis } from './analysis/types';
import type { Image8 } from './raster';

export interface AnalysisRequest {
  id: number;
  data: Uint8Array;
  width: number;
  height: number;
}

export type AnalysisReply = { id: number; ok: true; analysis: Analysis } | { id: number; ok: false; error: string };

interface Pending {
  img: Image8;
  resolve: (a: Analysis) => void;
  reject: (e: Error) => void;
}

class AnalysisThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  readonly ready: Promise<void>;

  constructor(worker: Worker) {
    this.worker = worker;
    let onReady: () => void = () => undefined;
    this.ready = new Promise<void>((r) => {
      onReady = r;
    });
    worker.on('message', (msg: AnalysisReply | { ready: true }) => {
      if ('ready' in msg) return onReady();
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.idle();
      if (msg.ok) p.resolve(msg.analysis);
      else p.reject(new Error(msg.error));
    });
    const fail = (err: Error) => {
      onReady();
      if (!this.worker) return;
      console.warn(`[toonzap-engine] analysis thread lost, analysing in the calling thread: ${err.message}`);
      this.worker = undefined;
      // the photos it held are analysed here instead: nothing is lost
      for (const p of this.pending.values()) analyzeHere(p.img).then(p.resolve, p.reject);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`analysis thread exited with code ${code}`)));
    worker.unref();
  }

  get alive(): boolean {
    return this.worker !== undefined;
  }

  /** Keeps the process alive while a request or the warm-up is outstanding, not while idle. */
  private idle(): void {
    if (this.pending.size === 0) this.worker?.unref();
  }

  run(img: Image8): Promise<Analysis> {
    const w = this.worker;
    if (!w) return analyzeHere(img);
    const id = this.nextId++;
    w.ref();
    return new Promise<Analysis>((resolve, reject) => {
      this.pending.set(id, { img, resolve, reject });
      // a compact copy (a Buffer's view may sit in a larger pooled ArrayBuffer; transferring would detach it here)
      w.postMessage({ id, data: new Uint8Array(img.data), width: img.width, height: img.height } satisfies AnalysisRequest);
    });
  }

  async warm(): Promise<void> {
    this.worker?.ref();
    await this.ready;
    this.idle();
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the analysis thread was closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }
}

let thread: AnalysisThread | undefined;

function current(warm: boolean): AnalysisThread | undefined {
  if (thread?.alive) return thread;
  let w: Worker | undefined;
  try {
    w = spawnEngineWorker('analysis-worker', { warm });
  } catch {
    w = undefined; // no worker support here
  }
  thread = w && new AnalysisThread(w);
  return thread;
}

/** The photo's analysis (people, faces) at the analysis size, computed in the analysis thread. */
export function analyzeImage(img: Image8): Promise<Analysis> {
  const t = current(false);
  return t ? t.run(img) : analyzeHere(img);
}

/** Start the analysis thread and load its models now (a server starting up); resolves when they are loaded. */
export async function warmAnalysisThread(): Promise<void> {
  await current(true)?.warm();
}

/** Stop the analysis thread (tests, graceful shutdown). The next analysis starts a new one. */
export async function closeAnalysisThread(): Promise<void> {
  const t = thread;
  thread = undefined;
  await t?.close();
}
