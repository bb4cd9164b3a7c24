import { createRaster, type Raster } from '../raster';

/**
 * Classic Kuwahara filter (four overlapping square sectors, pick the one with least variance)
 * computed with integral images: O(N) regardless of radius. Produces painterly flat strokes.
 * `where` (optional, per pixel): only pixels where it is > 0 are filtered; the others are left at 0 (for a caller
 * that blends the result in by that weight and would discard them anyway).
 */
export function kuwahara(img: Raster, radius: number, where?: Float32Array): Raster {
  const { width: w, height: h } = img;
  const r = Math.max(1, Math.round(radius));
  const W = w + 1;
  const n1 = W * (h + 1);
  const sr = new Float64Array(n1);
  const sg = new Float64Array(n1);
  const sb = new Float64Array(n1);
  const sq = new Float64Array(n1);
  for (let y = 0; y < h; y++) {
    let ar = 0;
    let ag = 0;
    let ab = 0;
    let aq = 0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const vr = img.r[i];
      const vg = img.g[i];
      const vb = img.b[i];
      ar += vr;
      ag += vg;
      ab += vb;
      aq += vr * vr + vg * vg + vb * vb;
      const o = (y + 1) * W + x + 1;
      sr[o] = sr[o - W] + ar;
      sg[o] = sg[o - W] + ag;
      sb[o] = sb[o - W] + ab;
      sq[o] = sq[o - W] + aq;
    }
  }
  const out = createRaster(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (where && !(where[y * w + x] > 0)) continue;
      let bestVar = Infinity;
      let br = 0;
      let bg = 0;
      let bb = 0;
      for (let q = 0; q < 4; q++) {
        let x0 = q & 1 ? x : x - r;
        let x1 = q & 1 ? x + r : x;
        let y0 = q & 2 ? y : y - r;
        let y1 = q & 2 ? y + r : y;
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > w - 1) x1 = w - 1;
        if (y1 > h - 1) y1 = h - 1;
        const a = y0 * W + x0;
        const b2 = y0 * W + x1 + 1;
        const c = (y1 + 1) * W + x0;
        const d = (y1 + 1) * W + x1 + 1;
        const cnt = (x1 - x0 + 1) * (y1 - y0 + 1);
        const mr = (sr[d] - sr[b2] - sr[c] + sr[a]) / cnt;
        const mg = (sg[d] - sg[b2] - sg[c] + sg[a]) / cnt;
        const mb = (sb[d] - sb[b2] - sb[c] + sb[a]) / cnt;
        const v = (sq[d] - sq[b2] - sq[c] + sq[a]) / cnt - (mr * mr + mg * mg + mb * mb);
        if (v < bestVar) {
          bestVar = v;
          br = mr;
          bg = mg;
          bb = mb;
        }
      }
      const i = y * w + x;
      out.r[i] = br;
      out.g[i] = bg;
      out.b[i] = bb;
    }
  }
  return out;
}
