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
  const f32 = Math.fround;
  for (let y = 0; y < h; y++) {
    // the taps summed per value, rounded to float32 after each as a float32 row accumulating them would be
    const cnt = ty.count[y];
    const n3 = sw * 3;
    const j0 = ty.first[y] * n3;
    const wt = y * ty.max;
    const w0 = ty.weights[wt] * k;
    const w1 = cnt > 1 ? ty.weights[wt + 1] * k : 0;
    const w2 = cnt > 2 ? ty.weights[wt + 2] * k : 0;
    const w3 = cnt > 3 ? ty.weights[wt + 3] * k : 0;
    if (cnt === 4) {
      for (let x = 0, j = j0; x < n3; x++, j++)
        row[x] = f32(f32(f32(data[j] * w0) + data[j + n3] * w1) + data[j + 2 * n3] * w2) + data[j + 3 * n3] * w3;
    } else if (cnt === 5) {
      const w4 = ty.weights[wt + 4] * k;
      for (let x = 0, j = j0; x < n3; x++, j++)
        row[x] =
          f32(f32(f32(f32(data[j] * w0) + data[j + n3] * w1) + data[j + 2 * n3] * w2) + data[j + 3 * n3] * w3) +
          data[j + 4 * n3] * w4;
    } else {
      for (let x = 0, j = j0; x < n3; x++, j++) row[x] = data[j] * w0;
      for (let t = 1; t < cnt; t++) {
        const wy = ty.weights[wt + t] * k;
        for (let j = j0 + t * n3, x = 0; x < n3; x++, j++) row[x] += data[j] * wy;
      }
    }
    for (let x = 0, o = y * w; x < w; x++) {
      const base = x * tx.max;
      let r = 0;
      let g = 0;
      let b = 0;
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
