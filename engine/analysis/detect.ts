/**
 * Face detection for faces of every size: MediaPipe's full-range face detector (192 x 192) on the whole photo and
 * on overlapping tiles of it, each window's contrast normalised first, detections merged by non-maximum
 * suppression. The whole-photo window finds faces from about a tenth of the long side up; the tiles (TILE of the
 * long side, a 192-px view each) find them down to about 3 %: analysing the photo at full size instead would cost
 * twenty windows, not ten.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Image8 } from '../raster';
import { crop, normaliseContrast, run } from './sample';
import type { Point } from './types';

/** Detector input size. */
export const DETECT_N = 192;
/** Detector score under which a detection is dropped (the face mesh then confirms each kept one). */
const DETECT_MIN = 0.5;
/** The most faces an analysis keeps (largest first after the mesh). */
export const MAX_FACES = 8;
/** Tile side as a share of the photo's long side; tiles overlap by a quarter, so a face under 10 % fits in one. */
const TILE = 0.4;
const OVERLAP = 0.25;
/**
 * Windows per detector run: batching saves CPU, but the wasm memory grows with the batch and never shrinks
 * (measured per 10 windows: batches of 10 528 ms CPU and +164 MB RSS, of 5 573 ms and +119 MB, of 1 808 ms and
 * +116 MB).
 */
const BATCH = 5;

export interface Detection {
  score: number;
  cx: number;
  cy: number;
  size: number;
  /** Detector keypoints: eyes (0, 1), nose, mouth, ears. */
  kp: Point[];
}

interface Window {
  cx: number;
  cy: number;
  size: number;
}

/** Evenly spaced starts of `size`-long windows covering 0..len with at least OVERLAP of overlap. */
function starts(len: number, size: number): number[] {
  if (size >= len) return [(len - size) / 2];
  const n = Math.ceil((len - size) / (size * (1 - OVERLAP))) + 1;
  return Array.from({ length: n }, (_, i) => ((len - size) * i) / (n - 1));
}

/** The whole photo (letterboxed square), then the tiles. */
export function windows(w: number, h: number): Window[] {
  const long = Math.max(w, h);
  const out: Window[] = [{ cx: w / 2, cy: h / 2, size: long }];
  const t = long * TILE;
  for (const y of starts(h, t)) for (const x of starts(w, t)) out.push({ cx: x + t / 2, cy: y + t / 2, size: t });
  return out;
}

/** The full-range detector's anchors: one per cell of a 48 x 48 grid (stride 4). */
function anchorOf(i: number): Point {
  const cells = DETECT_N / 4;
  return [4 * ((i % cells) + 0.5), 4 * (Math.floor(i / cells) + 0.5)];
}

/** Faces in `img` (image pixels), best first, at most MAX_FACES. */
export function detectFaces(model: GraphModel, img: Image8): Detection[] {
  const wins = windows(img.width, img.height);
  const len = DETECT_N * DETECT_N * 3;
  const outs: Float32Array[] = [];
  for (let first = 0; first < wins.length; first += BATCH) {
    const part = wins.slice(first, first + BATCH);
    const batch = new Float32Array(part.length * len);
    part.forEach((win, b) => {
      const { pixels } = crop(img, win.cx, win.cy, win.size, 0, DETECT_N);
      normaliseContrast(pixels);
      for (let i = 0; i < len; i++) batch[b * len + i] = pixels[i] * 2 - 1;
    });
    // per anchor: score logit, box centre offset and size, six keypoints (x, y), in 192-px input pixels
    const out = run(model, batch, DETECT_N, DETECT_N, part.length)[0];
    const per = out.length / part.length;
    for (let b = 0; b < part.length; b++) outs.push(out.subarray(b * per, (b + 1) * per));
  }
  const found: Detection[] = [];
  wins.forEach((win, b) => {
    const k = win.size / DETECT_N;
    const map = (x: number, y: number): Point => [win.cx + (x - DETECT_N / 2) * k, win.cy + (y - DETECT_N / 2) * k];
    for (let i = 0; i < outs[b].length / 17; i++) {
      const r = outs[b].subarray(i * 17, i * 17 + 17);
      const score = 1 / (1 + Math.exp(-r[0]));
      if (score < DETECT_MIN) continue;
      const [ax, ay] = anchorOf(i);
      const [cx, cy] = map(ax + r[1], ay + r[2]);
      const kp: Point[] = [];
      for (let j = 0; j < 6; j++) kp.push(map(ax + r[5 + 2 * j], ay + r[6 + 2 * j]));
      found.push({ score, cx, cy, size: Math.max(r[3], r[4]) * k, kp });
    }
  });
  // greedy non-maximum suppression over all windows (a face in two tiles, or in a tile and the whole photo)
  found.sort((p, q) => q.score - p.score || p.cx - q.cx || p.cy - q.cy);
  const kept: Detection[] = [];
  for (const d of found) {
    if (kept.some((e) => overlap(d, e) > 0.3)) continue;
    kept.push(d);
    if (kept.length === MAX_FACES) break;
  }
  return kept;
}

/** Intersection over the smaller box: a face cut by a tile's edge is the same face as the whole one. */
function overlap(a: Detection, b: Detection): number {
  const ix = Math.max(
    0,
    Math.min(a.cx + a.size / 2, b.cx + b.size / 2) - Math.max(a.cx - a.size / 2, b.cx - b.size / 2),
  );
  const iy = Math.max(
    0,
    Math.min(a.cy + a.size / 2, b.cy + b.size / 2) - Math.max(a.cy - a.size / 2, b.cy - b.size / 2),
  );
  return (ix * iy) / Math.min(a.size * a.size, b.size * b.size);
}
