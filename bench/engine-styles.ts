/**
 * The engine bench's per-style figures (bench/engine.ts): every style at 1024 and 256 px, and native OpenCV's classic
 * cartoon on the same pixels before and after them. A style's steady speed depends on how V8 tiered its loops in that
 * process: unchanged code measured oil-paint at 79, 84, 88 and 114 ms best, sketch at 65 to 90, in four processes one
 * after another. So the figures are taken in STYLE_PROCESSES fresh processes, each set up as a running server is, and
 * each figure is the median of theirs; the spread of the bests is printed beside it.
 */
import type * as engine from '../engine';
import type { Analysis } from '../engine/analysis/types';
import type { Image8 } from '../engine/raster';
import { ensureNativeOpenCv, nativeCartoon } from './native-opencv';
import { best, cpuIt, median, timeIt, wallStats } from './timing';

/** Fresh processes that measure every style (the bench's main process is the first). */
export const STYLE_PROCESSES = 3;

/**
 * Runs before a steady-state figure is taken. A style reaches its steady speed in a thread only after 10-25 runs
 * (measured at 1024 px: V8 tiers its loops up, and code that one run never reached is dropped from the optimised
 * version when the next reaches it; 3d took 282, 259, 192 ... 101 ms). Native OpenCV gets as many (its caches).
 */
const STEADY_WARMUP = 20;

/** One process's figures, by key (`style_1024_ms.<id>`, `opencv_cartoon_1024_ms`, ...). */
export type StyleFigures = Record<string, number>;

/** Every style's figures in this process, native OpenCV's before and after them; its version string too. */
export async function measureStyles(
  e: typeof engine,
  root: string,
  img1024: Image8,
  img256: Image8,
  analysis: Analysis,
): Promise<{ figures: StyleFigures; opencvVersion: string }> {
  const figures: StyleFigures = {};
  ensureNativeOpenCv();
  // the machine's speed drifts: the anchor before and after the styles
  const native = (warmup: number) => nativeCartoon(root, img1024.data, img1024.width, img1024.height, warmup, 9);
  const nativeRuns = [native(STEADY_WARMUP)];
  for (const id of e.STYLE_IDS) {
    // the first 1024-px render after the server's warm-up (what the first customer of a fresh container waits) ...
    const tFirst = performance.now();
    e.applyStyle(img1024, id, analysis);
    figures[`style_1024_first_ms.${id}`] = performance.now() - tFirst;
    // ... and the steady speed, once V8 has tiered the style's loops up
    const steady = await wallStats(9, () => e.applyStyle(img1024, id, analysis), STEADY_WARMUP);
    figures[`style_1024_ms.${id}`] = steady.best;
    figures[`style_1024_median_ms.${id}`] = steady.median;
    figures[`style_1024_cpu_ms.${id}`] = await cpuIt(9, () => e.applyStyle(img1024, id, analysis), 1);
    figures[`style_256_ms.${id}`] = await timeIt(9, () => e.applyStyle(img256, id, analysis), 5);
  }
  nativeRuns.push(native(3));
  const wall = nativeRuns.flatMap((n) => n.wall_ms);
  figures.opencv_threads = nativeRuns[0].threads;
  figures.opencv_cartoon_1024_ms = best(wall);
  figures.opencv_cartoon_1024_median_ms = median(wall);
  figures.opencv_cartoon_1024_cpu_ms = best(nativeRuns.flatMap((n) => n.cpu_ms));
  return { figures, opencvVersion: nativeRuns[0].version };
}

/**
 * The processes' figures as one: each the median of the processes', the range of each style's bests, and every
 * style's ratios to native OpenCV (medians over medians: a process's style and anchor ran minutes apart at most).
 */
export function combineStyleFigures(passes: StyleFigures[], styles: readonly string[]): StyleFigures {
  const out: StyleFigures = {};
  for (const key of Object.keys(passes[0])) out[key] = median(passes.map((p) => p[key]));
  out.style_processes = passes.length;
  for (const id of styles) {
    const bests = passes.map((p) => p[`style_1024_ms.${id}`]);
    out[`style_1024_min_ms.${id}`] = Math.min(...bests);
    out[`style_1024_max_ms.${id}`] = Math.max(...bests);
    out[`ratio_vs_opencv.${id}`] = out[`style_1024_ms.${id}`] / out.opencv_cartoon_1024_ms;
    out[`median_ratio_vs_opencv.${id}`] = out[`style_1024_median_ms.${id}`] / out.opencv_cartoon_1024_median_ms;
    out[`cpu_ratio_vs_opencv.${id}`] = out[`style_1024_cpu_ms.${id}`] / out.opencv_cartoon_1024_cpu_ms;
  }
  return out;
}
