/**
 * The likeness measure: does each face of a photo stay the same person in a render of it? For each face the
 * analysis finds in the photo, the same place in the render (the box scaled to the render's size) and in the photo
 * are cropped upright and described by HSE FaceRes (analysis/faceres.ts), and the two descriptors compared with the
 * similarity the human library defines (src/face/match.ts `similarity`, default options). One definition for the
 * tests, the bench and the quality gate (quality-gate.ts).
 *
 * The crops are cut here (plain JS); FaceRes runs in the analysis thread (analysis-thread.ts describeFaces), so a
 * caller that renders styles afterwards keeps its speed.
 */

import { FACERES_N } from './analysis/faceres';
import { crop } from './analysis/sample';
import type { Analysis, FaceInfo, Point } from './analysis/types';
import { describeFaces } from './analysis-thread';
import { analyzePhoto, decodeInput } from './index';
import type { Image8 } from './raster';

/**
 * Same-person threshold on `similarity`: the human library documents its match options so that "similarity above
 * 0.5 can be considered a match" (@vladmandic/human src/face/match.ts, the `distance` and `similarity` doc comments).
 */
export const LIKENESS_THRESHOLD = 0.5;
/** Crop side / the face-mesh box's larger side: forehead to chin with a margin, as the library's face crops. */
const CROP = 1.25;

export interface FaceLikeness {
  /** 0..1, 1 for identical faces; ≥ LIKENESS_THRESHOLD: the same person. */
  similarity: number;
  /** The face-mesh box in photo pixels: x, y, w, h. */
  box: [number, number, number, number];
  /** The same box in render pixels. */
  renderBox: [number, number, number, number];
}

export interface Likeness {
  threshold: number;
  faces: FaceLikeness[];
}

/** The human library's similarity (order 2, multiplier 25, normalised to 0.2..0.8), rounded to 1/100 as it does. */
export function similarity(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  const dist = Math.round(100 * 25 * sum) / 100;
  if (dist === 0) return 1;
  const norm = (1 - Math.sqrt(dist) / 100 - 0.2) / (0.8 - 0.2);
  return Math.round(100 * Math.max(0, Math.min(1, norm))) / 100;
}

/** Where a face sits: its box's centre and larger side, and its eye line's angle, all times `k`. */
function placement(f: FaceInfo, k: number): { c: Point; side: number; angle: number } {
  const [x, y, w, h] = f.box;
  const l = f.eyes.left.center;
  const r = f.eyes.right.center;
  return {
    c: [(x + w / 2) * k, (y + h / 2) * k],
    side: Math.max(w, h) * k * CROP,
    angle: Math.atan2(r[1] - l[1], r[0] - l[0]),
  };
}

/**
 * The likeness of each face of `analysis` (the photo's, at its analysis size) between the decoded photo and a
 * render of it (any size: the faces' places are scaled to each image's width).
 */
export async function faceLikeness(photo: Image8, render: Image8, analysis: Analysis): Promise<FaceLikeness[]> {
  const faces = analysis.faces;
  if (faces.length === 0) return [];
  const kp = photo.width / analysis.width;
  const kr = render.width / analysis.width;
  const one = FACERES_N * FACERES_N * 3;
  // photo crop, render crop, per face, end to end: one message to the analysis thread
  const crops = new Float32Array(2 * faces.length * one);
  faces.forEach((f, i) => {
    for (const [j, img, k] of [
      [0, photo, kp],
      [1, render, kr],
    ] as const) {
      const p = placement(f, k);
      crops.set(crop(img, p.c[0], p.c[1], p.side, p.angle, FACERES_N).pixels, (2 * i + j) * one);
    }
  });
  const d = await describeFaces(crops, 2 * faces.length);
  return faces.map((f, i) => {
    const box = (k: number) => f.box.map((v) => Math.round(v * k * 10) / 10) as FaceLikeness['box'];
    return { similarity: similarity(d[2 * i], d[2 * i + 1]), box: box(kp), renderBox: box(kr) };
  });
}

/**
 * The likeness of each face of `photo` (JPEG/PNG bytes) in `render` (a render of it, any size). `analysis`: the
 * photo's, when the caller has it (e.g. cached); else computed here.
 */
export async function likeness(photo: Buffer, render: Buffer, analysis?: Analysis): Promise<Likeness> {
  const [a, src, out] = await Promise.all([analysis ?? analyzePhoto(photo), decodeInput(photo), decodeInput(render)]);
  return { threshold: LIKENESS_THRESHOLD, faces: await faceLikeness(src, out, a) };
}
