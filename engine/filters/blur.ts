import type { Plane } from '../plane';
import { boxH, boxV } from './box-passes';
import { scratchPlane } from './scratch';
import { Upsampler } from './upsampler';

/**
 * Box blur of radius r (window 2r+1) along rows then columns, edges clamped.
 * O(1) per pixel regardless of radius (running sums). Returns a new plane.
 */
export function boxBlur(src: Plane, w: number, h: number, r: number, out?: Plane): Plane {
  const dst = out ?? new Float32Array(w * h);
  r = Math.max(0, Math.round(r));
  if (r === 0) {
    if (dst !== src) dst.set(src); // in place (a later pass of gaussBlur): nothing to do
    return dst;
  }
  const tmp = scratchPlane('blur', w * h); // the row pass, read back by the column pass only
  boxH(src, tmp, w, h, r);
  boxV(tmp, dst, w, h, r);
  return dst;
}

/**
 * Gaussian blur approximated by three box passes (standard deviation sigma).
 */
export function gaussBlur(src: Plane, w: number, h: number, sigma: number, passes = 3): Plane {
  return blurInto(src, w, h, sigma, passes);
}

/**
 * gaussBlur's result written over `p` itself, for a plane that is not needed afterwards: the same values without a
 * new plane (fewer planes a render, fewer collections; see scratch.ts). Returns p.
 */
export function gaussBlurInPlace(p: Plane, w: number, h: number, sigma: number): Plane {
  return blurInto(p, w, h, sigma, 3, p);
}

function blurInto(src: Plane, w: number, h: number, sigma: number, passes: number, out?: Plane): Plane {
  if (sigma < 0.3) return out ?? src.slice(); // out is src itself
  const f = decimation(sigma, w, h);
  if (f > 1) {
    const dw = Math.ceil(w / f);
    const dh = Math.ceil(h / f);
    const small = downscalePlane(src, w, h, dw, dh);
    // the decimated copy is the blur's own: blurred in place
    return resizePlane(blurInto(small, dw, dh, decimatedSigma(sigma, f), passes, small), dw, dh, w, h, out);
  }
  const radii = boxesForGauss(sigma, passes);
  let cur = boxBlur(src, w, h, radii[0], out);
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

/** Bilinear resample of a plane to a new size (used to move between work and output resolution), into `into` if given. */
export function resizePlane(src: Plane, sw: number, sh: number, dw: number, dh: number, into?: Plane): Plane {
  const out = into ?? new Float32Array(dw * dh);
  if (sw === dw && sh === dh) {
    if (out !== src) out.set(src);
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
  // Area binning: every source pixel is added to the destination pixel it falls in, in row-major order, the sum
  // rounded to float32 after each add (as a float32 sum array holds it). A bin's pixels in one row are adjacent, so
  // each row adds them bin by bin in a register; the counts are the bins' sizes.
  const sum = new Float32Array(dw * dh);
  const x0 = new Int32Array(dw + 1); // destination column d bins source columns x0[d] .. x0[d + 1] - 1
  const rows = new Float32Array(dh); // source rows per destination row
  for (let x = 0, d = 0; x < sw; x++) {
    const dx = Math.min(dw - 1, Math.floor((x * dw) / sw));
    while (d < dx) x0[++d] = x;
  }
  x0[dw] = sw;
  const f32 = Math.fround;
  for (let y = 0; y < sh; y++) {
    const dy = Math.min(dh - 1, Math.floor((y * dh) / sh));
    rows[dy]++;
    const row = dy * dw;
    const o = y * sw;
    for (let d = 0; d < dw; d++) {
      let a = sum[row + d];
      for (let x = x0[d], end = x0[d + 1]; x < end; x++) a = f32(a + src[o + x]);
      sum[row + d] = a;
    }
  }
  for (let dy = 0, i = 0; dy < dh; dy++) for (let d = 0; d < dw; d++, i++) sum[i] /= (x0[d + 1] - x0[d]) * rows[dy];
  return sum;
}

/**
 * Exact separable Gaussian (sampled kernel, radius ceil(3 sigma)) for small sigmas, where a few box
 * passes approximate poorly: used for line extraction at work resolution. Written into `into` when given.
 */
export function gaussKernelBlur(src: Plane, w: number, h: number, sigma: number, into?: Plane): Plane {
  if (sigma < 0.3) {
    if (!into) return src.slice();
    into.set(src);
    return into;
  }
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  const tmp = scratchPlane('blur', w * h); // the row pass, read back by the column pass only
  const out = into ?? new Float32Array(w * h); // every value written by the column pass
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
