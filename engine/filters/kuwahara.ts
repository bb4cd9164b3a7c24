import { createRaster, type Raster } from '../raster';

/**
 * Classic Kuwahara filter (four overlapping square sectors, pick the one with least variance) computed with integral
 * images: O(N) regardless of radius. Produces painterly flat strokes. Build it once per image and filter at several
 * radii (`filter`): the sums are shared.
 */
export class Kuwahara {
  private readonly w: number;
  private readonly h: number;
  /** Integral images of r, g, b and r² + g² + b², interleaved (one cache line per corner read), (w+1) x (h+1). */
  private readonly sums: Float64Array;

  constructor(img: Raster) {
    const { width: w, height: h } = img;
    this.w = w;
    this.h = h;
    const W = w + 1;
    const s = new Float64Array(W * (h + 1) * 4);
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
        const o = ((y + 1) * W + x + 1) * 4;
        const u = o - W * 4;
        s[o] = s[u] + ar;
        s[o + 1] = s[u + 1] + ag;
        s[o + 2] = s[u + 2] + ab;
        s[o + 3] = s[u + 3] + aq;
      }
    }
    this.sums = s;
  }

  /**
   * The filtered image at `radius`. `where` (optional, per pixel): only pixels where it is > 0 are filtered; the
   * others are left at 0 (for a caller that blends the result in by that weight and would discard them anyway).
   */
  filter(radius: number, where?: Float32Array): Raster {
    const { w, h, sums: s } = this;
    const r = Math.max(1, Math.round(radius));
    const W = w + 1;
    const out = createRaster(w, h);
    // the four sectors' corners (top-left a, top-right b, bottom-left c, bottom-right d) as offsets from the
    // integral index of (x, y), for pixels whose sectors all lie inside the image
    const off = new Int32Array(16);
    for (let q = 0; q < 4; q++) {
      const dx0 = q & 1 ? 0 : -r;
      const dx1 = q & 1 ? r : 0;
      const dy0 = q & 2 ? 0 : -r;
      const dy1 = q & 2 ? r : 0;
      off[q * 4] = (dy0 * W + dx0) * 4;
      off[q * 4 + 1] = (dy0 * W + dx1 + 1) * 4;
      off[q * 4 + 2] = ((dy1 + 1) * W + dx0) * 4;
      off[q * 4 + 3] = ((dy1 + 1) * W + dx1 + 1) * 4;
    }
    const inner = (r + 1) * (r + 1);
    for (let y = 0; y < h; y++) {
      const rowInside = y >= r && y + r <= h - 1;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (where && !(where[i] > 0)) continue;
        let bestVar = Infinity;
        let br = 0;
        let bg = 0;
        let bb = 0;
        const inside = rowInside && x >= r && x + r <= w - 1;
        const base = (y * W + x) * 4;
        for (let q = 0; q < 4; q++) {
          let a: number;
          let b2: number;
          let c: number;
          let d: number;
          let cnt: number;
          if (inside) {
            a = base + off[q * 4];
            b2 = base + off[q * 4 + 1];
            c = base + off[q * 4 + 2];
            d = base + off[q * 4 + 3];
            cnt = inner;
          } else {
            let x0 = q & 1 ? x : x - r;
            let x1 = q & 1 ? x + r : x;
            let y0 = q & 2 ? y : y - r;
            let y1 = q & 2 ? y + r : y;
            if (x0 < 0) x0 = 0;
            if (y0 < 0) y0 = 0;
            if (x1 > w - 1) x1 = w - 1;
            if (y1 > h - 1) y1 = h - 1;
            a = (y0 * W + x0) * 4;
            b2 = (y0 * W + x1 + 1) * 4;
            c = ((y1 + 1) * W + x0) * 4;
            d = ((y1 + 1) * W + x1 + 1) * 4;
            cnt = (x1 - x0 + 1) * (y1 - y0 + 1);
          }
          const mr = (s[d] - s[b2] - s[c] + s[a]) / cnt;
          const mg = (s[d + 1] - s[b2 + 1] - s[c + 1] + s[a + 1]) / cnt;
          const mb = (s[d + 2] - s[b2 + 2] - s[c + 2] + s[a + 2]) / cnt;
          const v = (s[d + 3] - s[b2 + 3] - s[c + 3] + s[a + 3]) / cnt - (mr * mr + mg * mg + mb * mb);
          if (v < bestVar) {
            bestVar = v;
            br = mr;
            bg = mg;
            bb = mb;
          }
        }
        out.r[i] = br;
        out.g[i] = bg;
        out.b[i] = bb;
      }
    }
    return out;
  }
}
