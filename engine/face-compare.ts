/**
 * What the likeness measure compares, free of tfjs and sharp (so the render path can cut crops and compare
 * descriptors while FaceRes itself runs in an analysis thread): each face's upright square crop, and the
 * similarity of two FaceRes descriptors. engine/likeness.ts (scripts, tests, bench) and engine/face-keep.ts (paid
 * renders) both use it, so they measure the same thing.
 */
import { createHash } from 'node:crypto';
import { crop } from './analysis/sample';
import type { FaceInfo, Point } from './analysis/types';
import type { Image8 } from './raster';

/**
 * Same-person threshold on `similarity`: the human library documents its match options so that "similarity above
 * 0.5 can be considered a match" (@vladmandic/human src/face/match.ts, the `distance` and `similarity` doc comments).
 */
export const LIKENESS_THRESHOLD = 0.5;
/** FaceRes input size. */
export const FACE_CROP_N = 224;
/** Crop side / the face-mesh box's larger side: forehead to chin with a margin, as the library's face crops. */
const CROP = 1.25;

/** Where a face sits: its box's centre and larger side, and its eye line's angle, all times `k`. */
export function facePlacement(f: FaceInfo, k: number): { c: Point; side: number; angle: number } {
  const [x, y, w, h] = f.box;
  const l = f.eyes.left.center;
  const r = f.eyes.right.center;
  return {
    c: [(x + w / 2) * k, (y + h / 2) * k],
    side: Math.max(w, h) * k * CROP,
    angle: Math.atan2(r[1] - l[1], r[0] - l[0]),
  };
}

/** FaceRes's input for face `f` (analysis coordinates) of `img`: the upright crop, N x N x 3 floats in 0..1. */
export function faceCrop(img: Image8, f: FaceInfo, analysisWidth: number): Float32Array {
  const p = facePlacement(f, img.width / analysisWidth);
  return crop(img, p.c[0], p.c[1], p.side, p.angle, FACE_CROP_N).pixels;
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

/** FaceRes descriptors of face crops (analysis-thread.ts `describeFaces`). */
export type Describe = (crops: Float32Array[]) => Promise<Float32Array[]>;

/**
 * Descriptors of recent crops, by the SHA-256 of the crop (FaceRes is deterministic): an order's styles of one photo
 * cut the same photo crops, and the quality gate cuts the same crop of a render as face keeping's last measure of it;
 * each would otherwise pay one FaceRes call (about 40 ms) per face again.
 */
const remembered = new Map<string, Float32Array>();
const REMEMBERED = 64;

/** `describe`'s descriptors of `crops`, those of crops seen recently remembered (only the others are described). */
export async function describeRemembered(crops: Float32Array[], describe: Describe): Promise<Float32Array[]> {
  const keys = crops.map((c) =>
    createHash('sha256')
      .update(new Uint8Array(c.buffer, c.byteOffset, c.byteLength))
      .digest('hex'),
  );
  // taken before the wait (other calls may push them out meanwhile); each crop not remembered described once (two
  // faces may cut the same crop)
  const known = keys.map((key) => remembered.get(key));
  const missing = new Map<string, Float32Array>();
  keys.forEach((key, i) => {
    if (!known[i]) missing.set(key, crops[i]);
  });
  const found = missing.size > 0 ? await describe([...missing.values()]) : [];
  const fresh = new Map([...missing.keys()].map((key, i) => [key, found[i]]));
  return keys.map((key, i) => {
    const d = known[i] ?? (fresh.get(key) as Float32Array);
    remembered.delete(key); // most recently used last
    remembered.set(key, d);
    if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    return d;
  });
}
