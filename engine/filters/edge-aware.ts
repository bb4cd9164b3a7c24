import type { Plane, Raster } from '../raster';

/**
 * Domain-transform recursive edge-preserving filter (Gastal & Oliveira, SIGGRAPH 2011).
 * Smooths within regions and stops at colour edges of `guide` (default: the image itself).
 * O(N) per iteration, independent of sigmaS. sigmaS in pixels, sigmaR in [0,1] colour units.
 * Filters the planes of `img` in place and returns it. The three planes are swept together.
 */
export function domainTransform(img: Raster, sigmaS: number, sigmaR: number, iterations = 3, guide: Raster = img): Raster {
  const { width: w, height: h } = img;
  const [VHd, VVd, dMax] = derivatives([guide.r, guide.g, guide.b], w, h, sigmaS / sigmaR);
  run(VHd, VVd, dMax, w, h, sigmaS, iterations, (VH, VV) => {
    sweepH3(img.r, img.g, img.b, VH, w, h);
    sweepV3(img.r, img.g, img.b, VV, w, h);
  });
  return img;
}

/** Single-plane variant (e.g. luminance), guided by the plane itself. In place. */
export function domainTransformPlane(p: Plane, w: number, h: number, sigmaS: number, sigmaR: number, iterations = 3): Plane {
  const [VHd, VVd, dMax] = derivatives([p], w, h, sigmaS / sigmaR);
  run(VHd, VVd, dMax, w, h, sigmaS, iterations, (VH, VV) => {
    sweepH1(p, VH, w, h);
    sweepV1(p, VV, w, h);
  });
  return p;
}

function derivatives(guide: Plane[], w: number, h: number, ratio: number): [Float32Array, Float32Array, number] {
  const n = w * h;
  const dH = new Float32Array(n);
  const dV = new Float32Array(n);
  let dMax = 1;
  for (const g of guide) {
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let x = 1; x < w; x++) dH[o + x] += Math.abs(g[o + x] - g[o + x - 1]);
    }
    for (let i = w; i < n; i++) dV[i] += Math.abs(g[i] - g[i - w]);
  }
  for (let i = 0; i < n; i++) {
    const a = 1 + ratio * dH[i];
    const b = 1 + ratio * dV[i];
    dH[i] = a;
    dV[i] = b;
    if (a > dMax) dMax = a;
    if (b > dMax) dMax = b;
  }
  return [dH, dV, dMax];
}

function run(
  dH: Float32Array,
  dV: Float32Array,
  dMax: number,
  w: number,
  h: number,
  sigmaS: number,
  iterations: number,
  sweep: (VH: Float32Array, VV: Float32Array) => void,
): void {
  const n = w * h;
  const VH = new Float32Array(n);
  const VV = new Float32Array(n);
  const LUT_N = 4096;
  const lut = new Float32Array(LUT_N + 1);
  const lutScale = LUT_N / dMax;
  // sigma_H halves from one iteration to the next, so the feedback weight a^d squares: one LUT pass only.
  const sigmaH0 = (sigmaS * Math.sqrt(3) * 2 ** (iterations - 1)) / Math.sqrt(4 ** iterations - 1);
  const lnA = -Math.SQRT2 / sigmaH0;
  for (let k = 0; k <= LUT_N; k++) lut[k] = Math.exp(lnA * (k / lutScale));
  for (let i = 0; i < n; i++) {
    VH[i] = lut[(dH[i] * lutScale + 0.5) | 0];
    VV[i] = lut[(dV[i] * lutScale + 0.5) | 0];
  }
  for (let it = 0; it < iterations; it++) {
    if (it > 0) {
      for (let i = 0; i < n; i++) {
        VH[i] *= VH[i];
        VV[i] *= VV[i];
      }
    }
    sweep(VH, VV);
  }
}

function sweepH3(r: Plane, g: Plane, b: Plane, V: Plane, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let pr = r[o];
    let pg = g[o];
    let pb = b[o];
    for (let i = o + 1, end = o + w; i < end; i++) {
      const v = V[i];
      pr = r[i] + v * (pr - r[i]);
      pg = g[i] + v * (pg - g[i]);
      pb = b[i] + v * (pb - b[i]);
      r[i] = pr;
      g[i] = pg;
      b[i] = pb;
    }
    for (let i = o + w - 2; i >= o; i--) {
      const v = V[i + 1];
      pr = r[i] + v * (pr - r[i]);
      pg = g[i] + v * (pg - g[i]);
      pb = b[i] + v * (pb - b[i]);
      r[i] = pr;
      g[i] = pg;
      b[i] = pb;
    }
  }
}

function sweepV3(r: Plane, g: Plane, b: Plane, V: Plane, w: number, h: number): void {
  const n = w * h;
  for (let i = w; i < n; i++) {
    const v = V[i];
    const q = i - w;
    r[i] += v * (r[q] - r[i]);
    g[i] += v * (g[q] - g[i]);
    b[i] += v * (b[q] - b[i]);
  }
  for (let i = n - w - 1; i >= 0; i--) {
    const q = i + w;
    const v = V[q];
    r[i] += v * (r[q] - r[i]);
    g[i] += v * (g[q] - g[i]);
    b[i] += v * (b[q] - b[i]);
  }
}

function sweepH1(p: Plane, V: Plane, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let prev = p[o];
    for (let i = o + 1, end = o + w; i < end; i++) {
      prev = p[i] + V[i] * (prev - p[i]);
      p[i] = prev;
    }
    for (let i = o + w - 2; i >= o; i--) {
      prev = p[i] + V[i + 1] * (prev - p[i]);
      p[i] = prev;
    }
  }
}

function sweepV1(p: Plane, V: Plane, w: number, h: number): void {
  const n = w * h;
  for (let i = w; i < n; i++) p[i] += V[i] * (p[i - w] - p[i]);
  for (let i = n - w - 1; i >= 0; i--) p[i] += V[i + w] * (p[i + w] - p[i]);
}
