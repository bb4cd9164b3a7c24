import { createRaster, fromRGB8, type Image8, type Raster } from '../raster';

/** Per output sample along one axis: its first source index and its tent weights (summing to 1). */
function tentTaps(n: number, m: number): { first: Int32Array; count: Int32Array; weights: Float32Array; max: number } {
  const ratio = m / n;
  const max = Math.ceil(2 * ratio) + 1;
  const first = new Int32Array(n);
  const count = new Int32Array(n);
  const weights = new Float32Array(n * max);
  for (let x = 0; x < n; x++) {
    const c = (x + 0.5) * ratio; // the footprint's centre in source coordinates
    const lo = Math.max(0, Math.ceil(c - ratio - 0.5));
    const hi = Math.min(m - 1, Math.floor(c + ratio - 0.5));
    let sum = 0;
    for (let j = lo; j <= hi; j++) {
      const wgt = Math.max(0, 1 - Math.abs(j + 0.5 - c) / ratio);
      weights[x * max + j - lo] = wgt;
      sum += wgt;
    }
    for (let j = lo; j <= hi; j++) weights[x * max + j - lo] /= sum;
    first[x] = lo;
    count[x] = hi - lo + 1;
  }
  return { first, count, weights, max };
}

/**
 * Interleaved RGB8 -> planar float at w x h (at most the source size) with a real low-pass: each output pixel a tent
 * (triangle) average over twice its footprint. A plain area average keeps a third of a stripe just above the new
 * Nyquist frequency and folds it back as a slow beat (a ribbed sweater's moiré); the tent keeps under a tenth of it.
 * Separable: one pass down the rows into a float row, one along it.
 */
export function antialiasedRaster(img: Image8, w: number, h: number): Raster {
  const { data, width: sw, height: sh } = img;
  if (sw === w && sh === h) return fromRGB8(data, sw, sh);
  const tx = tentTaps(w, sw);
  const ty = tentTaps(h, sh);
  const out = createRaster(w, h);
  const row = new Float32Array(sw * 3);
  const k = 1 / 255;
  for (let y = 0; y < h; y++) {
    row.fill(0);
    for (let t = 0; t < ty.count[y]; t++) {
      const wy = ty.weights[y * ty.max + t] * k;
      for (let j = (ty.first[y] + t) * sw * 3, x = 0; x < sw * 3; x++, j++) row[x] += data[j] * wy;
    }
    for (let x = 0, o = y * w; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const base = x * tx.max;
      for (let t = 0, j = tx.first[x] * 3; t < tx.count[x]; t++, j += 3) {
        const wx = tx.weights[base + t];
        r += row[j] * wx;
        g += row[j + 1] * wx;
        b += row[j + 2] * wx;
      }
      out.r[o + x] = r;
      out.g[o + x] = g;
      out.b[o + x] = b;
    }
  }
  return out;
}
