import { type Plane, type Raster, resizeRaster } from '../raster';
import { sweepH1, sweepH3, sweepV1, sweepV3 } from './recursive-sweeps';
import { scratchPlane } from './scratch';

/**
 * Domain-transform recursive edge-preserving filter (Gastal & Oliveira, SIGGRAPH 2011).
 * Smooths within regions and stops at colour edges of `guide` (default: the image itself).
 * O(N) per iteration, independent of sigmaS. sigmaS in pixels, sigmaR in [0,1] colour units.
 * Filters the planes of `img` in place and returns it. The three planes are swept together.
 */
export function domainTransform(
  img: Raster,
  sigmaS: number,
  sigmaR: number,
  iterations = 3,
  guide: Raster = img,
): Raster {
  const { width: w, height: h } = img;
  const [VH, VV] = feedbackWeights([guide.r, guide.g, guide.b], w, h, sigmaS, sigmaR, iterations);
  for (let it = 0; it < iterations; it++) {
    if (it > 0) square(VH, VV);
    sweepH3(img.r, img.g, img.b, VH, w, h);
    sweepV3(img.r, img.g, img.b, VV, w, h);
  }
  return img;
}

/**
 * A wide, loose domain transform (a backdrop melted into calm areas, clay skin) holds no fine detail of its own:
 * made at half size and enlarged, a quarter of the work. Returns a new raster; `img` is left as it is.
 */
export function domainTransformHalf(img: Raster, sigmaS: number, sigmaR: number, iterations = 3): Raster {
  return resizeRaster(domainTransformAtHalf(img, sigmaS, sigmaR, iterations), img.width, img.height);
}

/** domainTransformHalf before its enlargement (for a caller that reads it back row by row with an Upsampler). */
export function domainTransformAtHalf(img: Raster, sigmaS: number, sigmaR: number, iterations = 3): Raster {
  const { width: w, height: h } = img;
  const hw = Math.max(1, w >> 1);
  const hh = Math.max(1, h >> 1);
  return domainTransform(resizeRaster(img, hw, hh), (sigmaS * hw) / w, sigmaR, iterations);
}

/** Single-plane variant (e.g. luminance), guided by the plane itself. In place. */
export function domainTransformPlane(
  p: Plane,
  w: number,
  h: number,
  sigmaS: number,
  sigmaR: number,
  iterations = 3,
): Plane {
  const [VH, VV] = feedbackWeights([p], w, h, sigmaS, sigmaR, iterations);
  for (let it = 0; it < iterations; it++) {
    if (it > 0) square(VH, VV);
    sweepH1(p, VH, w, h);
    sweepV1(p, VV, w, h);
  }
  return p;
}

/** Entries of the feedback weights' table (a^d sampled over the guide's range of d). */
const LUT_N = 4096;

/**
 * Recursive-filter feedback weights a^d of the first iteration, horizontal and vertical, in one pass:
 * d = 1 + (sigmaS / sigmaR) * sum over channels |difference to the left / upper neighbour|.
 * sigma_H halves from one iteration to the next, so later iterations just square these (see square).
 */
function feedbackWeights(
  guide: Plane[],
  w: number,
  h: number,
  sigmaS: number,
  sigmaR: number,
  iterations: number,
): [Float32Array, Float32Array] {
  const n = w * h;
  const ratio = sigmaS / sigmaR;
  const sigmaH0 = (sigmaS * Math.sqrt(3) * 2 ** (iterations - 1)) / Math.sqrt(4 ** iterations - 1);
  const lnA = -Math.SQRT2 / sigmaH0;
  // a^d over d in [1, 1 + ratio * dRange]; beyond the table the weight is ~0 (a hard edge) anyway
  const dRange = 1.5 * guide.length;
  const lut = new Float32Array(LUT_N + 1);
  for (let k = 0; k <= LUT_N; k++) {
    const a = Math.exp(lnA * (1 + (ratio * dRange * k) / LUT_N));
    lut[k] = a < 1e-30 ? 0 : a; // no denormals (see square)
  }
  const toIdx = LUT_N / dRange;
  // every value written below; the sweeps read them and square them in place, and nothing keeps them
  const VH = scratchPlane('weightsH', n);
  const VV = scratchPlane('weightsV', n);
  // the first column and row have no left / upper neighbour; every other pixel has both (no per-pixel tests)
  for (let y = 0; y < h; y++) VH[y * w] = lut[0];
  VV.fill(lut[0], 0, w);
  // a two-plane guide is not used (a Raster has three planes, domainTransformPlane one)
  if (guide.length === 1) weights1(guide[0], w, h, lut, toIdx, VH, VV);
  else weights3(guide[0], guide[1], guide[2], w, h, lut, toIdx, VH, VV);
  return [VH, VV];
}

/** feedbackWeights' inner loop for a one-plane guide: the first row's horizontal weights, then whole rows. */
function weights1(
  c: Plane,
  w: number,
  h: number,
  lut: Float32Array,
  toIdx: number,
  VH: Float32Array,
  VV: Float32Array,
): void {
  for (let i = 1; i < w; i++) {
    const t = Math.abs(c[i] - c[i - 1]) * toIdx + 0.5;
    VH[i] = t >= LUT_N ? 0 : lut[t | 0];
  }
  for (let y = 1; y < h; y++) {
    const o = y * w;
    const t = Math.abs(c[o] - c[o - w]) * toIdx + 0.5;
    VV[o] = t >= LUT_N ? 0 : lut[t | 0];
    for (let i = o + 1, end = o + w; i < end; i++) {
      const v = c[i];
      const th = Math.abs(v - c[i - 1]) * toIdx + 0.5;
      VH[i] = th >= LUT_N ? 0 : lut[th | 0];
      const tv = Math.abs(v - c[i - w]) * toIdx + 0.5;
      VV[i] = tv >= LUT_N ? 0 : lut[tv | 0];
    }
  }
}

/** feedbackWeights' inner loop for a three-plane guide: the channels' differences summed in this order. */
function weights3(
  c0: Plane,
  c1: Plane,
  c2: Plane,
  w: number,
  h: number,
  lut: Float32Array,
  toIdx: number,
  VH: Float32Array,
  VV: Float32Array,
): void {
  for (let i = 1; i < w; i++) {
    const q = i - 1;
    const t = (Math.abs(c0[i] - c0[q]) + Math.abs(c1[i] - c1[q]) + Math.abs(c2[i] - c2[q])) * toIdx + 0.5;
    VH[i] = t >= LUT_N ? 0 : lut[t | 0];
  }
  for (let y = 1; y < h; y++) {
    const o = y * w;
    const q = o - w;
    const t = (Math.abs(c0[o] - c0[q]) + Math.abs(c1[o] - c1[q]) + Math.abs(c2[o] - c2[q])) * toIdx + 0.5;
    VV[o] = t >= LUT_N ? 0 : lut[t | 0];
    for (let i = o + 1, end = o + w; i < end; i++) {
      const v0 = c0[i];
      const v1 = c1[i];
      const v2 = c2[i];
      const th = (Math.abs(v0 - c0[i - 1]) + Math.abs(v1 - c1[i - 1]) + Math.abs(v2 - c2[i - 1])) * toIdx + 0.5;
      VH[i] = th >= LUT_N ? 0 : lut[th | 0];
      const u = i - w;
      const tv = (Math.abs(v0 - c0[u]) + Math.abs(v1 - c1[u]) + Math.abs(v2 - c2[u])) * toIdx + 0.5;
      VV[i] = tv >= LUT_N ? 0 : lut[tv | 0];
    }
  }
}

function square(VH: Float32Array, VV: Float32Array): void {
  // Weights across hard edges underflow towards float32 denormals, which make every multiply in the
  // sweeps tens of times slower on x86: flush them to 0 (they are 0 to any visible precision).
  for (let i = 0; i < VH.length; i++) {
    const a = VH[i] * VH[i];
    const b = VV[i] * VV[i];
    VH[i] = a < 1e-30 ? 0 : a;
    VV[i] = b < 1e-30 ? 0 : b;
  }
}
