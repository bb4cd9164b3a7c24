import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module at `file` (a path without its extension): the bundled `<file>.js` when it is
 * there (the container and bench bundles), else the TypeScript source through tsx (dev, tests, the local runtime).
 * Undefined when neither is here (a bundle that did not ship the worker).
 */
export function spawnWorker(file: string, workerData: unknown): Worker | undefined {
  const js = `${file}.js`;
  if (fs.existsSync(js)) return new Worker(js, { workerData });
  const ts = `${file}.ts`;
  if (!fs.existsSync(ts)) return undefined;
  const boot = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(ts)});`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Start one of the engine's worker threads beside this file; undefined when this bundle did not ship it: the caller
 * then does the work in its own thread.
 */
export function spawnEngineWorker(name: 'style-worker' | 'analysis-worker', workerData: unknown): Worker | undefined {
  return spawnWorker(path.join(__dirname, name), workerData);
}

/** A worker's answer to the request with the same id. */
export type WorkerReply<T> = { id: number; ok: true; value: T } | { id: number; ok: false; error: string };

/** Sent once by a worker when it has loaded (and warmed up, if asked). */
export interface WorkerReady {
  ready: true;
}

/** The worker died or could not run: its requests are the caller's to do in its own thread. */
export class WorkerLostError extends Error {}

/**
 * One engine worker thread answering requests by id. Referenced only while a request or a warm-up is outstanding:
 * a waiting caller keeps the process alive, an idle worker does not. If the thread dies, every request it held
 * rejects with WorkerLostError.
 */
export class EngineWorker<Req extends { id: number }, T> {
  private readonly pending = new Map<number, { resolve: (v: T) => void; reject: (e: Error) => void }>();
  private worker: Worker | undefined;
  /** Settles when the worker has loaded (and warmed up, if asked) or failed. */
  readonly ready: Promise<void>;
  isReady = false;

  /** `lost`: what the warning says when the thread dies (what the caller does instead). */
  constructor(worker: Worker, lost: string) {
    this.worker = worker;
    let onReady: () => void = () => undefined;
    this.ready = new Promise<void>((r) => {
      onReady = r;
    });
    worker.on('message', (msg: WorkerReply<T> | WorkerReady) => {
      if ('ready' in msg) {
        this.isReady = true;
        return onReady();
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(msg.error));
    });
    const fail = (err: Error) => {
      onReady();
      if (this.worker) console.warn(`[toonzap-engine] ${lost}: ${err.message}`);
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(new WorkerLostError(err.message));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    // an idle worker never keeps the process alive (after the listeners: adding a 'message' listener refs the port)
    worker.unref();
  }

  /** `ready`, keeping the process alive until then (an unref'd loading worker would let it exit). */
  awaitReady(): Promise<void> {
    if (this.isReady || !this.worker) return this.ready;
    this.worker.ref();
    return this.ready.finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  get alive(): boolean {
    return this.worker !== undefined;
  }

  run(req: Req): Promise<T> {
    const w = this.worker;
    if (!w) return Promise.reject(new WorkerLostError('the worker is not running'));
    if (this.pending.size === 0) w.ref();
    const settle = () => {
      if (this.pending.size === 0) this.worker?.unref();
    };
    return new Promise<T>((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject });
      w.postMessage(req);
    }).finally(settle);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the worker was closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }
}
