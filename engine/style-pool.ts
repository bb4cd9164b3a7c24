/**
 * A small pool of persistent worker threads for rendering several styles of one image at once
 * (all-style thumbnails). Styles are split over the calling thread and the workers by a static cost
 * table (each style's cost in renderers/index.ts), so the result is the same bytes as rendering them one after another. If a worker cannot start
 * or dies, its styles are rendered in the calling thread: the pool is a speed-up, never a dependency.
 * Workers start on the first batch (which renders in the calling thread while they load) or, JIT-warmed,
 * by warmStylePool() when a server starts; a batch only uses workers that have finished loading.
 *
 * Size: TOONZAP_ENGINE_WORKERS (0 disables), default one fewer than the available cores, at most 3.
 */
import os from 'node:os';
import type { StyleId } from '../domain/styles';
import type { Analysis } from './analysis/types';
import { applyStyle } from './apply';
import { EngineWorker, spawnEngineWorker } from './engine-worker';
import type { Image8 } from './raster';
import { STYLE_ENGINES } from './renderers';
import { warmUpStyles } from './warm-up';

export interface StyleJob {
  id: number;
  styles: StyleId[];
  data: Uint8Array;
  width: number;
  height: number;
  /** The photo's analysis (structured-cloned to the worker), if any. */
  analysis?: Analysis | null;
}

const cost = (s: StyleId) => STYLE_ENGINES[s].cost;

/** Largest-first greedy partition of styles into `bins` groups of similar total cost (bin 0 = caller). */
export function splitByCost(styles: readonly StyleId[], bins: number): StyleId[][] {
  const out: StyleId[][] = Array.from({ length: bins }, () => []);
  const load = new Array<number>(bins).fill(0);
  // the calling thread also schedules the PNG encodes: give it a small head start
  load[0] = 2;
  const sorted = [...styles].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  for (const s of sorted) {
    let k = 0;
    for (let j = 1; j < bins; j++) if (load[j] < load[k]) k = j;
    out[k].push(s);
    load[k] += cost(s);
  }
  // keep catalogue order inside each group (stable, readable)
  return out.map((g) => styles.filter((s) => g.includes(s)));
}

function defaultSize(): number {
  const env = process.env.TOONZAP_ENGINE_WORKERS;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    return Number.isInteger(n) && n >= 0 ? Math.min(n, 8) : 0;
  }
  return Math.max(0, Math.min(3, os.availableParallelism() - 1));
}

/** A style worker (throws if this bundle has none: the pool then renders in the calling thread). */
function styleWorker(warm: boolean): EngineWorker<StyleJob, Uint8Array[]> {
  const w = spawnEngineWorker('style-worker', { warm });
  if (!w) throw new Error('no style worker beside the engine');
  return new EngineWorker(w, 'style worker lost, its styles render in the calling thread');
}

let workers: EngineWorker<StyleJob, Uint8Array[]>[] | undefined;
let nextJob = 1;
let renderedByWorkers = 0;

function pool(warm = false): EngineWorker<StyleJob, Uint8Array[]>[] {
  if (!workers) {
    workers = [];
    const n = defaultSize();
    for (let i = 0; i < n; i++) {
      try {
        workers.push(styleWorker(warm));
      } catch {
        break; // no worker support here: render in the calling thread
      }
    }
  }
  workers = workers.filter((w) => w.alive);
  return workers;
}

/**
 * Start the workers now (e.g. when a server starts) instead of on the first batch, and resolve once
 * every thread has warmed its JIT (the calling thread too, synchronously, about 0.3 s of CPU).
 * Returns the number of worker threads.
 */
export async function warmStylePool(): Promise<number> {
  const ws = pool(true);
  warmUpStyles();
  await Promise.all(ws.map((w) => w.awaitReady()));
  return pool().length; // a worker that failed to load is gone by now
}

/** Styles rendered by worker threads since the process started (observability, tests). */
export function stylesRenderedByWorkers(): number {
  return renderedByWorkers;
}

/** Stop the workers (tests, graceful shutdown). The next batch starts new ones. */
export async function closeStylePool(): Promise<void> {
  const ws = workers ?? [];
  workers = undefined;
  await Promise.all(ws.map((w) => w.close()));
}

/**
 * Render several styles of one image, in parallel where workers are available. `onResult` is called
 * for each style as soon as its pixels exist (in the calling thread), so encoding can overlap rendering.
 */
export async function applyStyles(
  img: Image8,
  styles: readonly StyleId[],
  onResult: (styleId: StyleId, data: Buffer) => void,
  analysis?: Analysis | null,
): Promise<void> {
  // only workers that have finished loading get work: a batch never waits for a thread to boot
  const ws = pool().filter((w) => w.isReady);
  const groups = splitByCost(styles, ws.length + 1);
  const remote = groups.slice(1).map((g, k) => {
    if (g.length === 0) return Promise.resolve();
    // a compact copy for the worker (transferring it instead of cloning measured ~10 % slower batches)
    const data = Uint8Array.from(img.data);
    return ws[k].run({ id: nextJob++, styles: g, data, width: img.width, height: img.height, analysis }).then(
      (results) => {
        renderedByWorkers += results.length;
        g.forEach((s, i) => {
          onResult(s, Buffer.from(results[i].buffer, results[i].byteOffset, results[i].byteLength));
        });
      },
      // a failed worker: render its share here (same code, same bytes)
      () => {
        for (const s of g) onResult(s, applyStyle(img, s, analysis).data);
      },
    );
  });
  for (const s of groups[0]) {
    onResult(s, applyStyle(img, s, analysis).data);
    // let the thread pool pick up the encode while the next style renders
    await new Promise<void>((r) => setImmediate(r));
  }
  await Promise.all(remote);
}
