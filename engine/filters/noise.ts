import { type Plane, Upsampler } from '../raster';

/** Deterministic integer hash -> [0,1). */
export function hash2(x: number, y: number, seed: number): number {
  let h = (Math.imul(x | 0, 374761393) + Math.imul(y | 0, 668265263) + Math.imul(seed | 0, 2246822519)) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** White noise plane in [0,1), deterministic for (w,h,seed). */
export function whiteNoise(w: number, h: number, seed: number): Plane {
  const out = new Float32Array(w * h);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) out[i] = hash2(x, y, seed);
  return out;
}

/**
 * Smooth value noise with feature size `cell` px: random lattice upsampled bilinearly
 * (smoothstep-free; good enough for paper/brush textures). Values in [0,1].
 */
export function valueNoise(w: number, h: number, cell: number, seed: number): Plane {
  const rows = new ValueNoiseRows(w, h, cell, seed);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) out.set(rows.row(y).subarray(0, w), y * w);
  return out;
}

/**
 * Value noise one row at a time (valueNoise is built on it): full-size finishing passes read it without
 * allocating full-size planes.
 */
export class ValueNoiseRows {
  private readonly grid: Plane;
  private readonly up: Upsampler;
  private readonly buf: Float32Array;

  constructor(w: number, h: number, cell: number, seed: number) {
    const gw = Math.max(2, Math.ceil(w / cell) + 1);
    const gh = Math.max(2, Math.ceil(h / cell) + 1);
    this.grid = whiteNoise(gw, gh, seed);
    this.up = new Upsampler(gw, gh, Math.round(gw * cell), Math.round(gh * cell));
    this.buf = new Float32Array(this.up.dw);
  }

  /** Row y (first w values are the image's). The returned array is reused by the next call. */
  row(y: number): Float32Array {
    return this.up.row(this.grid, y, this.buf);
  }
}

/** Fractal sum of value noise octaves, normalised to roughly [0,1]. */
export function fbm(w: number, h: number, cell: number, octaves: number, seed: number): Plane {
  const out = new Float32Array(w * h);
  let amp = 1;
  let total = 0;
  let c = cell;
  for (let o = 0; o < octaves && c >= 1; o++) {
    const n = valueNoise(w, h, c, seed + o * 101);
    for (let i = 0; i < out.length; i++) out[i] += n[i] * amp;
    total += amp;
    amp *= 0.5;
    c /= 2;
  }
  for (let i = 0; i < out.length; i++) out[i] /= total;
  return out;
}
