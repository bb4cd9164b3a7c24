import { createRaster, type Image8, type Raster, rasterFromRGB8 } from '../raster';

/** The separable 4-tap kernel of a 2:1 reduction: a 2-px box convolved with [1 2 1] / 4. */
const K = [1 / 8, 3 / 8, 3 / 8, 1 / 8];

/**
 * Interleaved RGB8 -> planar float at w x h with a real low-pass: area-averaged to twice the size (or the image's own
 * size when it is under that), then reduced 2:1 by the [1 3 3 1] / 8 kernel. A plain area average keeps a third of
 * a stripe just above the new Nyquist frequency and folds it back as a slow beat (a ribbed sweater's moiré); this
 * keeps 5 % of it, at 16 taps per output pixel. An image already at most w x h is converted as it is.
 */
export function antialiasedRaster(img: Image8, w: number, h: number): Raster {
  if (img.width <= w && img.height <= h) return rasterFromRGB8(img, img.width, img.height);
  const mw = Math.min(img.width, 2 * w);
  const mh = Math.min(img.height, 2 * h);
  const mid = rasterFromRGB8(img, mw, mh);
  const out = createRaster(w, h);
  // each output pixel's 4 source columns / rows (clamped), centred on its footprint in `mid`
  const taps = (n: number, m: number) => {
    const at = new Int32Array(n * 4);
    for (let x = 0; x < n; x++) {
      const c = Math.floor(((x + 0.5) * m) / n) - 2;
      for (let t = 0; t < 4; t++) at[x * 4 + t] = Math.min(m - 1, Math.max(0, c + t));
    }
    return at;
  };
  const tx = taps(w, mw);
  const ty = taps(h, mh);
  const row = new Float32Array(mw);
  for (const [src, dst] of [
    [mid.r, out.r],
    [mid.g, out.g],
    [mid.b, out.b],
  ]) {
    for (let y = 0; y < h; y++) {
      // vertical pass into one row, then horizontal taps from it
      const r0 = ty[y * 4] * mw;
      const r1 = ty[y * 4 + 1] * mw;
      const r2 = ty[y * 4 + 2] * mw;
      const r3 = ty[y * 4 + 3] * mw;
      for (let x = 0; x < mw; x++)
        row[x] = K[0] * src[r0 + x] + K[1] * src[r1 + x] + K[2] * src[r2 + x] + K[3] * src[r3 + x];
      for (let x = 0, o = y * w; x < w; x++) {
        const j = x * 4;
        dst[o + x] = K[0] * row[tx[j]] + K[1] * row[tx[j + 1]] + K[2] * row[tx[j + 2]] + K[3] * row[tx[j + 3]];
      }
    }
  }
  return out;
}
