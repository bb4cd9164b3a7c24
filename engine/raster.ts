import { downscalePlane, resizePlane } from './filters/blur';

/**
 * Planar float raster used by all style filters: three Float32Array planes (R, G, B) in [0, 1].
 * Planar layout keeps separable filters simple and fast.
*/
export type Plane = Float32Array;

export interface Raster {
  readonly width: number;
  readonly height: number;
  r: Plane;
  g: Plane;
  b: Plane;
}

export function createRaster(width: number, height: number): Raster {
  const n = width * height;
  return { width, height, r: new Float32Array(n), g: new Float32Array(n), b: new Float32Array(n) };
}

export function cloneRaster(src: Raster): Raster {
  return { width: src.width, height: src.height, r: src.r.slice(), g: src.g.slice(), b: src.b.slice() };
}

/** Interleaved 8-bit RGB -> planar float. */
export function fromRGB8(data: Uint8Array, width: number, height: number): Raster {
  const out = createRaster(width, height);
  const { r, g, b } = out;
  const n = width * height;
  const inv = 1 / 255;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    r[i] = data[j] * inv;
    g[i] = data[j + 1] * inv;
    b[i] = data[j + 2] * inv;
  }
  return out;
}

/** Planar float -> interleaved 8-bit RGB (clamped, rounded). */
export function toRGB8(src: Raster): Buffer {
  const n = src.width * src.height;
  const out = Buffer.allocUnsafe(n * 3);
  const { r, g, b } = src;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    out[j] = clamp255(r[i]);
    out[j + 1] = clamp255(g[i]);
    out[j + 2] = clamp255(b[i]);
  }
  return out;
}

function clamp255(v: number): number {
  const x = v * 255 + 0.5;
  return x <= 0 ? 0 : x >= 255 ? 255 : x | 0;
}

/** Rec. 709 luma of a raster. */
export function luma(src: Raster): Plane {
  const n = src.width * src.height;
  const out = new Float32Array(n);
  const { r, g, b } = src;
  for (let i = 0; i < n; i++) out[i] = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
  return out;
}

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

export function smoothstep(e0: number, e1: number, x: number): number {
  const t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

/** Scale factor of an image relative to the 512-px reference all style parameters are tuned at. */
export function scaleOf(width: number, height: number): number {
  return Math.max(width, height) / 512;
}

/** Resize a raster (area-average when shrinking, bilinear when enlarging). */
export function resizeRaster(src: Raster, w: number, h: number): Raster {
  if (w === src.width && h === src.height) return cloneRaster(src);
  const f = w < src.width ? downscalePlane : resizePlane;
  return {
    width: w,
    height: h,
    r: f(src.r, src.width, src.height, w, h),
    g: f(src.g, src.width, src.height, w, h),
    b: f(src.b, src.width, src.height, w, h),
  };
}

/** Work-resolution size: the image scaled so its long side is at most `maxLong`. */
export function workSize(w: number, h: number, maxLong: number): { w: number; h: number; f: number } {
  const long = Math.max(w, h);
  if (long <= maxLong) return { w, h, f: 1 };
  const f = maxLong / long;
  return { w: Math.max(1, Math.round(w * f)), h: Math.max(1, Math.round(h * f)), f };
}
