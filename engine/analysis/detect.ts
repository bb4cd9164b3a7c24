/**
 * Face detection for faces of every size: MediaPipe's full-range face detector (192 x 192) on the whole photo and
 * on overlapping tiles of it, each window's contrast normalised first, detections merged by non-maximum
 * suppression. The whole-photo window finds faces from about a tenth of the long side up; the tiles (TILE of the
 * long side, a 192-px view each) find them down to about 3 %, with a closer look at what they are unsure of
 * (closerLook). A preview's analysis runs them only when the whole photo's faces leave room for smaller ones
 * (WHOLE_ENOUGH); a paid render's always does (`thorough`). Analysing the photo at full size instead would cost
 * twenty windows, not ten.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Image8 } from '../raster';
import type { Head } from './persons';
import { crop, normaliseContrast, run } from './sample';
import type { Point } from './types';

/** Detector input size. */
export const DETECT_N = 192;
/** Detector score under which a detection is dropped (the face mesh then confirms each kept one). */
const DETECT_MIN = 0.5;
/** The most faces an analysis keeps (largest first after the mesh). */
export const MAX_FACES = 8;
/**
 * Tile side as a share of the photo's long side: a 3 % face is 14.4 px in the detector's input, about the smallest
 * it finds in grey (at 0.43, 13.4 px, it lost the grey group's 3 % face; at 0.56 10 of 17 small faces).
 */
const TILE = 0.4;
/**
 * Least overlap of neighbouring tiles, as a share of the long side: a face the whole-view window may miss (under
 * 10 %: grey ones) fits whole in one tile. A 4:3 photo gets 3 x 3 tiles.
 */
const OVERLAP = 0.1;
/**
 * The tiles look for faces the whole view is too coarse for. For a preview (256 px, where a face that small is a few
 * pixels) they are skipped when the whole view found faces and the smallest is at least WHOLE_ENOUGH of the long
 * side, found with at least WHOLE_SURE: the whole view finds faces from 6-7 % of the long side in colour, 10 % in
 * grey or dark, so a portrait or a couple costs one window instead of seven. A paid render's analysis (`thorough`)
 * always runs them: someone smaller behind the subjects (a grey 4 % face beside a 14 % one) has a face too.
 */
const WHOLE_ENOUGH = 0.15;
const WHOLE_SURE = 0.75;
/**
 * Windows per detector run: batching saves CPU, but the wasm memory grows with the batch and never shrinks
 * (measured per 10 windows: batches of 10 528 ms CPU and +164 MB RSS, of 5 573 ms and +119 MB, of 1 808 ms and
 * +116 MB).
 */
const BATCH = 3;
/**
 * The face head's two tensors, read before the graph joins them: the model also has a person head, and its outputs
 * end in a concat along the last axis that tfjs-wasm copies row by row (measured: a window 51 ms CPU with the
 * model's outputs, 18 ms with these two).
 */
const FACE_SCORES = 'StatefulPartitionedCall/model/reshaped_classifier_face_4/Reshape';
const FACE_BOXES = 'StatefulPartitionedCall/model/reshaped_regressor_face_4/Reshape';

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
  /** Radians the window is turned by (a head's roll); 0 by default. */
  angle?: number;
}

/** Evenly spaced starts of `size`-long windows covering 0..len, neighbours overlapping by at least `overlap`. */
function starts(len: number, size: number, overlap: number): number[] {
  if (size >= len) return [(len - size) / 2];
  const n = Math.ceil((len - size) / (size - overlap)) + 1;
  return Array.from({ length: n }, (_, i) => ((len - size) * i) / (n - 1));
}

/** The overlapping tiles (each TILE of the long side) covering the photo. */
export function tiles(w: number, h: number): Window[] {
  const long = Math.max(w, h);
  const t = long * TILE;
  const out: Window[] = [];
  for (const y of starts(h, t, long * OVERLAP)) {
    for (const x of starts(w, t, long * OVERLAP)) out.push({ cx: x + t / 2, cy: y + t / 2, size: t });
  }
  return out;
}

/** The full-range detector's anchors: one per cell of a 48 x 48 grid (stride 4). */
function anchorOf(i: number): Point {
  const cells = DETECT_N / 4;
  return [4 * ((i % cells) + 0.5), 4 * (Math.floor(i / cells) + 0.5)];
}

/** Every detection scoring at least `min` in the windows, in image pixels. */
function scan(model: GraphModel, img: Image8, wins: readonly Window[], min = DETECT_MIN): Detection[] {
  const len = DETECT_N * DETECT_N * 3;
  const found: Detection[] = [];
  for (let first = 0; first < wins.length; first += BATCH) {
    const part = wins.slice(first, first + BATCH);
    const batch = new Float32Array(part.length * len);
    const maps = part.map((win, b) => {
      const { pixels, toImage } = crop(img, win.cx, win.cy, win.size, win.angle ?? 0, DETECT_N);
      normaliseContrast(pixels);
      for (let i = 0; i < len; i++) batch[b * len + i] = pixels[i] * 2 - 1;
      return toImage;
    });
    // per anchor: a score logit; and box centre offset and size, six keypoints (x, y), in input pixels
    const [scores, boxes] = run(model, batch, DETECT_N, DETECT_N, part.length, [FACE_SCORES, FACE_BOXES]);
    const anchors = scores.length / part.length;
    part.forEach((win, b) => {
      const k = win.size / DETECT_N;
      const map = maps[b];
      for (let i = 0; i < anchors; i++) {
        const score = 1 / (1 + Math.exp(-scores[b * anchors + i]));
        if (score < min) continue;
        const r = boxes.subarray((b * anchors + i) * 16, (b * anchors + i + 1) * 16);
        const [ax, ay] = anchorOf(i);
        const [cx, cy] = map(ax + r[0], ay + r[1]);
        const kp: Point[] = [];
        for (let j = 0; j < 6; j++) kp.push(map(ax + r[4 + 2 * j], ay + r[5 + 2 * j]));
        found.push({ score, cx, cy, size: Math.max(r[2], r[3]) * k, kp });
      }
    });
  }
  return found;
}

/** Greedy non-maximum suppression (a face in two tiles, or in a tile and the whole photo), best first. */
function suppress(found: Detection[]): Detection[] {
  found.sort((p, q) => q.score - p.score || p.cx - q.cx || p.cy - q.cy);
  const kept: Detection[] = [];
  for (const d of found) {
    if (kept.some((e) => overlap(d, e) > 0.3)) continue;
    kept.push(d);
    if (kept.length === MAX_FACES) break;
  }
  return kept;
}

/**
 * Faces in `img` (image pixels), best first, at most MAX_FACES: the whole photo (letterboxed square), then the
 * tiles, unless not `thorough` and the whole view's faces are a preview's subjects (WHOLE_ENOUGH). `beforeTiles`:
 * called when the tiles are about to run, told whether the whole view found such subjects all the same.
 */
export function detectFaces(
  model: GraphModel,
  img: Image8,
  opts: { thorough: boolean; beforeTiles?: (subjectsFound: boolean) => void },
): Detection[] {
  const { thorough, beforeTiles } = opts;
  const long = Math.max(img.width, img.height);
  const whole = scan(model, img, [{ cx: img.width / 2, cy: img.height / 2, size: long }]);
  const subjects = suppress(whole.slice());
  const enough = (d: Detection) => d.size >= WHOLE_ENOUGH * long && d.score >= WHOLE_SURE;
  const found = subjects.length > 0 && subjects.every(enough);
  if (found && !thorough) return subjects;
  beforeTiles?.(found);
  const tiled = scan(model, img, tiles(img.width, img.height), CLOSER_MIN);
  const sure = suppress([...whole, ...tiled.filter((d) => d.score >= DETECT_MIN)]);
  return suppress([...sure, ...closerLook(model, img, sure, tiled)]);
}

/**
 * A face of 3-5 % of the long side is 14-24 px in a tile's view, where the detector is unsure of it (a grey 4 %
 * face beside a 14 % one scored 0.38). Each unsure tile detection (CLOSER_MIN to DETECT_MIN, not on a sure one, the
 * best CLOSER_MAX) is looked at again in a window of CLOSER_WINDOW of its sizes, where it is 60 px: measured, that
 * face then scored 0.85, while the unsure non-faces of the same photo (a headlight, a badge, a helmet) scored
 * 0.13-0.48. What passes DETECT_MIN there goes to the mesh like any detection.
 */
const CLOSER_MIN = 0.3;
const CLOSER_WINDOW = 3;
const CLOSER_MAX = 6;
function closerLook(model: GraphModel, img: Image8, sure: Detection[], tiled: Detection[]): Detection[] {
  const unsure = suppress(tiled.filter((d) => d.score < DETECT_MIN && !sure.some((e) => overlap(d, e) > 0.3))).slice(
    0,
    CLOSER_MAX,
  );
  // all the windows in the detector's batches; each candidate keeps the best detection on it
  const wins = unsure.map((d) => ({
    cx: d.cx,
    cy: d.cy,
    size: d.size * CLOSER_WINDOW,
    angle: eyeAngle(d.kp[0], d.kp[1]),
  }));
  const found = wins.length > 0 ? scan(model, img, wins) : [];
  const out: Detection[] = [];
  for (const d of unsure) {
    const [best] = suppress(found.filter((f) => Math.hypot(f.cx - d.cx, f.cy - d.cy) < d.size));
    if (best) out.push(best);
  }
  return out;
}

/** Eye line angle (image-left eye -> image-right eye): a detection's windows are turned upright by it. */
export function eyeAngle(p: Point, q: Point): number {
  const [l, r] = p[0] <= q[0] ? [p, q] : [q, p];
  return Math.atan2(r[1] - l[1], r[0] - l[0]);
}

/**
 * Where MoveNet saw a head but no face was found (rolled, partly hidden), the detector once more on a window of
 * HEAD_WINDOW head sizes around it, turned upright by the head's roll: the person is evidence of its own, so a
 * weaker detection (HEAD_DETECT_MIN) goes to the mesh, which still confirms it. At most the best one per head.
 */
const HEAD_WINDOW = 2.5;
const HEAD_DETECT_MIN = 0.3;
export function detectInHeads(model: GraphModel, img: Image8, heads: readonly Head[]): Detection[] {
  const out: Detection[] = [];
  for (const h of heads) {
    const win = { cx: h.cx, cy: h.cy, size: h.size * HEAD_WINDOW, angle: h.angle };
    const [best] = suppress(scan(model, img, [win], HEAD_DETECT_MIN));
    if (best && Math.hypot(best.cx - h.cx, best.cy - h.cy) < h.size) out.push(best);
  }
  return out;
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
