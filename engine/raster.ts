import { downscalePlane, resizePlane } from './filters/blur';
import { Upsampler } from './filters/upsampler';
import type { Plane } from './plane';

export { Upsampler } from './filters/upsampler';

export type { Plane } from './plane';

/**
 * Planar float raster used by all style filters: three Float32Array planes (R, G, B) in [0, 1].
 * Planar layout keeps separable filters simple and fast.
 */
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
    out[j] = byte(r[i]);
    out[j + 1] = byte(g[i]);
    out[j + 2] = byte(b[i]);
  }
  return out;
}

/** 0..1 float -> 0..255 byte, clamped and rounded. */
export function byte(v: number): number {
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

/** Hermite step from 0 at e0 to 1 at e1 (e0 < e1). */
export function smoothstep(e0: number, e1: number, x: number): number {
  // most pixels lie outside the ramp: answer them without the division (same values)
  if (x <= e0) return 0;
  if (x >= e1) return 1;
  const t = (x - e0) / (e1 - e0);
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

/** Interleaved 8-bit RGB image: what sharp decodes to and encodes from. */
export interface Image8 {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Interleaved RGB8 -> planar float at (dw, dh) <= the source size, area-averaged in one pass.
 * Styles that work at a reduced resolution never materialise a full-size float copy.
 */
export function rasterFromRGB8(img: Image8, dw: number, dh: number): Raster {
  const { data, width: sw, height: sh } = img;
  if (dw === sw && dh === sh) return fromRGB8(data, sw, sh);
  const out = createRaster(dw, dh);
  const { r, g, b } = out;
  // Separable binning in integers (exact in any order): the source rows of one destination row are summed into one
  // row of sums (contiguous adds), whose columns are then summed bin by bin and scaled by the bins' areas.
  const x0 = new Int32Array(dw + 1); // destination column d bins source columns x0[d] .. x0[d + 1] - 1
  for (let x = 0, d = 0; x < sw; x++) {
    const dx = Math.min(dw - 1, Math.floor((x * dw) / sw));
    while (d < dx) x0[++d] = x;
  }
  x0[dw] = sw;
  const rowSum = new Int32Array(sw * 3);
  const n3 = sw * 3;
  let y = 0;
  for (let dy = 0; dy < dh; dy++) {
    // the source rows of this destination row: those whose floor(y dh / sh) (capped) is dy
    const first = y;
    while (y < sh && Math.min(dh - 1, Math.floor((y * dh) / sh)) === dy) y++;
    const rows = y - first;
    if (rows === 0) {
      // no source row (cannot happen when shrinking): 0, as the bins' sums are
      r.fill(0, dy * dw, dy * dw + dw);
      g.fill(0, dy * dw, dy * dw + dw);
      b.fill(0, dy * dw, dy * dw + dw);
      continue;
    }
    rowSum.set(data.subarray(first * n3, first * n3 + n3));
    for (let yy = first + 1; yy < y; yy++) {
      for (let i = 0, j = yy * n3; i < n3; i++, j++) rowSum[i] += data[j];
    }
    const o = dy * dw;
    for (let x = 0; x < dw; x++) {
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let j = x0[x] * 3, end = x0[x + 1] * 3; j < end; j += 3) {
        sr += rowSum[j];
        sg += rowSum[j + 1];
        sb += rowSum[j + 2];
      }
      const k = 1 / (255 * (x0[x + 1] - x0[x]) * rows);
      r[o + x] = sr * k;
      g[o + x] = sg * k;
      b[o + x] = sb * k;
    }
  }
  return out;
}

/** Rec. 709 luma of interleaved RGB8, as a float plane in [0,1]. */
export function lumaFromRGB8(img: Image8): Plane {
  const { data } = img;
  const n = img.width * img.height;
  const out = new Float32Array(n);
  const kr = 0.2126 / 255;
  const kg = 0.7152 / 255;
  const kb = 0.0722 / 255;
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = kr * data[j] + kg * data[j + 1] + kb * data[j + 2];
  return out;
}

/** `n` scratch rows of `w` floats for a finishing pass (one per upsampled field). */
export function rowBuffers(w: number, n: number): Float32Array[] {
  return Array.from({ length: n }, () => new Float32Array(w));
}

/**
 * A w x h interleaved RGB8 output and a clamped view of it: writing `v * 255` to the view rounds and clamps
 * natively (faster than byte() per channel in a finishing pass; ties round to even).
 */
export function rgb8Out(w: number, h: number): { out: Buffer; oc: Uint8ClampedArray } {
  const out = Buffer.allocUnsafe(w * h * 3);
  return { out, oc: new Uint8ClampedArray(out.buffer, out.byteOffset, out.length) };
}

/** Interleaved RGB8 at w x h from a producer of planar float rows (`fill(y, r, g, b)`), one row at a time. */
export function rowsToRGB8(
  w: number,
  h: number,
  fill: (y: number, r: Float32Array, g: Float32Array, b: Float32Array) => void,
): Buffer {
  const { out, oc } = rgb8Out(w, h);
  const [rr, gg, bb] = rowBuffers(w, 3);
  for (let y = 0; y < h; y++) {
    fill(y, rr, gg, bb);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      oc[j] = rr[x] * 255;
      oc[j + 1] = gg[x] * 255;
      oc[j + 2] = bb[x] * 255;
    }
  }
  return out;
}

/** Upsample a (work-resolution) raster straight into interleaved RGB8 at w x h. */
export function upsampleToRGB8(src: Raster, w: number, h: number): Buffer {
  if (src.width === w && src.height === h) return toRGB8(src);
  const up = new Upsampler(src.width, src.height, w, h);
  return rowsToRGB8(w, h, (y, r, g, b) => {
    up.row(src.r, y, r);
    up.row(src.g, y, g);
    up.row(src.b, y, b);
  });
}
