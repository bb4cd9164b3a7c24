import type { Plane } from '../plane';
import { scratchPlane } from './scratch';
import { Upsampler } from './upsampler';

/**
 * Box blur of radius r (window 2r+1) along rows then columns, edges clamped.
 * O(1) per pixel regardless of radius (running sums). Returns a new plane.
 */
export function boxBlur(src: Plane, w: number, h: number, r: number, out?: Plane, scratch?: Plane): Plane {
  const dst = out ?? new Float32Array(w * h);
  r = Math.max(0, Math.round(r));
  if (r === 0) {
    if (dst !== src) dst.set(src); // in place (a later pass of gaussBlur): nothing to do
    return dst;
  }
  const tmp = scratch ?? scratchPlane('blur', w * h); // the row pass, read back by the column pass only
  boxH(src, tmp, w, h, r);
  boxV(tmp, dst, w, h, r);
  return dst;
}

function boxH(src: Plane, dst: Plane, w: number, h: number, r: number): void {
  const inv = 1 / (2 * r + 1);
  // clamped reads only near the ends (x < x1, x >= x2): the middle of a row slides without a test per pixel
  const x1 = Math.min(r, w);
  const x2 = Math.max(x1, w - r - 1);
  let y = 0;
  // the middle two rows at a time: each sum waits on the last, and a second, independent row keeps the core busy
  // through that wait (the same operations per pixel as one row at a time)
  for (; y + 1 < h; y += 2) {
    const o = y * w;
    const p = o + w;
    let acc = boxStart(src, dst, o, w, r, inv, x1);
    let acd = boxStart(src, dst, p, w, r, inv, x1);
    for (let x = x1, a = x1 + r + 1, b = x1 - r; x < x2; x++, a++, b++) {
      dst[o + x] = acc * inv;
      dst[p + x] = acd * inv;
      acc += src[o + a] - src[o + b];
      acd += src[p + a] - src[p + b];
    }
    boxEnd(src, dst, o, w, r, inv, x2, acc);
    boxEnd(src, dst, p, w, r, inv, x2, acd);
  }
  for (; y < h; y++) {
    const o = y * w;
    let acc = boxStart(src, dst, o, w, r, inv, x1);
    for (let x = x1, a = o + x1 + r + 1, b = o + x1 - r; x < x2; x++, a++, b++) {
      dst[o + x] = acc * inv;
      acc += src[a] - src[b];
    }
    boxEnd(src, dst, o, w, r, inv, x2, acc);
  }
}

/** boxH's row at offset o up to x1 (reads clamped at the left end); returns the running sum there. */
function boxStart(src: Plane, dst: Plane, o: number, w: number, r: number, inv: number, x1: number): number {
  const last = w - 1;
  let acc = 0;
  for (let k = -r; k <= r; k++) acc += src[o + (k < 0 ? 0 : k > last ? last : k)];
  for (let x = 0; x < x1; x++) {
    dst[o + x] = acc * inv;
    const add = x + r + 1;
    acc += src[o + (add > last ? last : add)] - src[o];
  }
  return acc;
}

/** boxH's row at offset o from x2 on (reads clamped at the right end), from the running sum `acc`. */
function boxEnd(src: Plane, dst: Plane, o: number, w: number, r: number, inv: number, x2: number, acc: number): void {
  const last = w - 1;
  for (let x = x2; x < w; x++) {
    dst[o + x] = acc * inv;
    const sub = x - r;
    acc += src[o + last] - src[o + (sub < 0 ? 0 : sub)];
  }
}

function boxV(src: Plane, dst: Plane, w: number, h: number, r: number): void {
  const inv = 1 / (2 * r + 1);
  const last = h - 1;
  const acc = new Float32Array(w);
  for (let k = -r; k <= r; k++) {
    const row = (k < 0 ? 0 : k > last ? last : k) * w;
    for (let x = 0; x < w; x++) acc[x] += src[row + x];
  }
  const rowAt = (y: number) => (y < 0 ? 0 : y > last ? last : y) * w;
  let y = 0;
  // two output rows per sweep: the running sums are loaded and stored once for both (rounded to float32 between the
  // rows as their array would hold them)
  for (; y + 1 < h; y += 2) {
    const o = y * w;
    const add = rowAt(y + r + 1);
    const sub = rowAt(y - r);
    const add2 = rowAt(y + r + 2);
    const sub2 = rowAt(y + 1 - r);
    for (let x = 0; x < w; x++) {
      const a = acc[x];
      dst[o + x] = a * inv;
      const b = Math.fround(a + src[add + x] - src[sub + x]);
      dst[o + w + x] = b * inv;
      acc[x] = b + src[add2 + x] - src[sub2 + x];
    }
  }
  for (; y < h; y++) {
    const o = y * w;
    const add = rowAt(y + r + 1);
    const sub = rowAt(y - r);
    for (let x = 0; x < w; x++) {
      const a = acc[x];
      dst[o + x] = a * inv;
      acc[x] = a + src[add + x] - src[sub + x];
    }
  }
}

/**
 * Gaussian blur approximated by three box passes (standard deviation sigma).
 */
export function gaussBlur(src: Plane, w: number, h: number, sigma: number, passes = 3): Plane {
  if (sigma < 0.3) return src.slice();
  const f = decimation(sigma, w, h);
  if (f > 1) {
    const dw = Math.ceil(w / f);
    const dh = Math.ceil(h / f);
    const small = downscalePlane(src, w, h, dw, dh);
    return resizePlane(gaussBlur(small, dw, dh, decimatedSigma(sigma, f), passes), dw, dh, w, h);
  }
  const radii = boxesForGauss(sigma, passes);
  let cur = boxBlur(src, w, h, radii[0]);
  for (let k = 1; k < passes; k++) cur = boxBlur(cur, w, h, radii[k], cur);
  return cur;
}

/**
 * Several wide Gaussian blurs of one plane, kept small: the plane is decimated once by the factor gaussBlur would
 * use for the narrowest sigma, blurred there, and read back at full size row by row (`up.row(planes[k], y, buf)`)
 * instead of as full-size planes. Same result as gaussBlur per sigma when the factors agree.
 */
export function blurFields(
  src: Plane,
  w: number,
  h: number,
  sigmas: readonly number[],
): { planes: Plane[]; up: Upsampler } {
  const f = decimation(Math.min(...sigmas), w, h);
  if (f === 1) return { planes: sigmas.map((sg) => gaussBlur(src, w, h, sg)), up: new Upsampler(w, h, w, h) };
  const dw = Math.ceil(w / f);
  const dh = Math.ceil(h / f);
  const small = downscalePlane(src, w, h, dw, dh);
  const planes = sigmas.map((sg) => gaussBlur(small, dw, dh, decimatedSigma(sg, f)));
  return { planes, up: new Upsampler(dw, dh, w, h) };
}

/** Wide blurs hold no detail finer than ~sigma/2: the factor (1 = none) by which a plane is decimated before one. */
function decimation(sigma: number, w: number, h: number): number {
  const f = Math.floor(sigma / 2.5);
  return f >= 2 && w >= 4 * f && h >= 4 * f ? f : 1;
}

/** The sigma, in decimated pixels, that gives `sigma` overall after an f x f box average. */
function decimatedSigma(sigma: number, f: number): number {
  return Math.sqrt(Math.max(0.25, sigma * sigma - (f * f - 1) / 12)) / f;
}

/** Box radii whose successive application approximates a Gaussian of the given sigma. */
export function boxesForGauss(sigma: number, n: number): number[] {
  const wIdeal = Math.sqrt((12 * sigma * sigma) / n + 1);
  let wl = Math.floor(wIdeal);
  if (wl % 2 === 0) wl--;
  const wu = wl + 2;
  const mIdeal = (12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4);
  const m = Math.round(mIdeal);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(((i < m ? wl : wu) - 1) / 2);
  return out;
}

/** Bilinear resample of a plane to a new size (used to move between work and output resolution). */
export function resizePlane(src: Plane, sw: number, sh: number, dw: number, dh: number): Plane {
  const out = new Float32Array(dw * dh);
  if (sw === dw && sh === dh) {
    out.set(src);
    return out;
  }
  const up = new Upsampler(sw, sh, dw, dh);
  for (let y = 0; y < dh; y++) up.row(src, y, out.subarray(y * dw, (y + 1) * dw));
  return out;
}

/** Area-average downscale by an integer-free factor (box filter), for building the work resolution. */
export function downscalePlane(src: Plane, sw: number, sh: number, dw: number, dh: number): Plane {
  if (dw === sw && dh === sh) return src.slice();
  if (dw > sw || dh > sh) return resizePlane(src, sw, sh, dw, dh);
  // Area binning: every source pixel is added to the destination pixel it falls in (single pass).
  const sum = new Float32Array(dw * dh);
  const cnt = new Float32Array(dw * dh);
  const xmap = new Int32Array(sw);
  for (let x = 0; x < sw; x++) xmap[x] = Math.min(dw - 1, Math.floor((x * dw) / sw));
  for (let y = 0; y < sh; y++) {
    const row = Math.min(dh - 1, Math.floor((y * dh) / sh)) * dw;
    const o = y * sw;
    for (let x = 0; x < sw; x++) {
      const j = row + xmap[x];
      sum[j] += src[o + x];
      cnt[j] += 1;
    }
  }
  for (let i = 0; i < sum.length; i++) sum[i] /= cnt[i];
  return sum;
}

/**
 * Exact separable Gaussian (sampled kernel, radius ceil(3 sigma)) for small sigmas, where a few box
 * passes approximate poorly: used for line extraction at work resolution.
 */
export function gaussKernelBlur(src: Plane, w: number, h: number, sigma: number): Plane {
  if (sigma < 0.3) return src.slice();
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  const tmp = scratchPlane('blur', w * h); // the row pass, read back by the column pass only
  const out = new Float32Array(w * h);
  const last = w - 1;
  const k0 = k[r];
  // symmetric kernel: fold the taps (half the multiplies)
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      const c = o + x;
      let a = k0 * src[c];
      if (x >= r && x <= last - r) {
        for (let t = 1; t <= r; t++) a += k[r + t] * (src[c - t] + src[c + t]);
      } else {
        for (let t = 1; t <= r; t++) {
          const xl = x - t;
          const xr = x + t;
          a += k[r + t] * (src[o + (xl < 0 ? 0 : xl)] + src[o + (xr > last ? last : xr)]);
        }
      }
      tmp[c] = a;
    }
  }
  const lastY = h - 1;
  // the taps added to `out` one after another, rounded to float32 after each as `out` holds them; two taps per
  // sweep of the row (half the loads and stores of `out`, the same values)
  const f32 = Math.fround;
  const rowAt = (y: number) => (y < 0 ? 0 : y > lastY ? lastY : y) * w;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let t = 1;
    if (r >= 2) {
      // the centre and the first two taps in the first sweep
      const u1 = rowAt(y - 1);
      const d1 = rowAt(y + 1);
      const u2 = rowAt(y - 2);
      const d2 = rowAt(y + 2);
      const ka = k[r + 1];
      const kb = k[r + 2];
      for (let x = 0; x < w; x++)
        out[o + x] = f32(f32(k0 * tmp[o + x]) + ka * (tmp[u1 + x] + tmp[d1 + x])) + kb * (tmp[u2 + x] + tmp[d2 + x]);
      t = 3;
    } else for (let x = 0; x < w; x++) out[o + x] = k0 * tmp[o + x];
    for (; t < r; t += 2) {
      const u1 = rowAt(y - t);
      const d1 = rowAt(y + t);
      const u2 = rowAt(y - t - 1);
      const d2 = rowAt(y + t + 1);
      const ka = k[r + t];
      const kb = k[r + t + 1];
      for (let x = 0; x < w; x++)
        out[o + x] = f32(out[o + x] + ka * (tmp[u1 + x] + tmp[d1 + x])) + kb * (tmp[u2 + x] + tmp[d2 + x]);
    }
    if (t === r) {
      const up = rowAt(y - t);
      const dn = rowAt(y + t);
      const kt = k[r + t];
      for (let x = 0; x < w; x++) out[o + x] += kt * (tmp[up + x] + tmp[dn + x]);
    }
  }
  return out;
}
