import { type Plane, type Raster, Upsampler } from '../raster';
import { gaussBlur } from './blur';

/**
 * Enlarges a flat-colour (label) image without staircases. Bilinear upsampling of a label image keeps
 * every work pixel's stair step, only blurred, which shows at 100 % on a 2048-px output. Here a pixel
 * whose bilinear neighbours all carry one label takes that label's colour; a pixel between labels takes
 * the candidate colour nearest to the bilinearly upsampled, slightly blurred colour image, whose contours
 * are smooth curves, with a one-pixel blend on the contour itself. At 1:1 it reproduces the labels exactly.
 */
export class LabelUpsampler {
  private readonly up: Upsampler;
  private readonly gr: Plane;
  private readonly gg: Plane;
  private readonly gb: Plane;

  /**
   * labels: work-resolution label per pixel; palette: RGB per label (the final, graded colours);
   * painted: the work image painted with that palette (the guide is its blur).
   */
  constructor(
    private readonly labels: Uint16Array,
    private readonly palette: Float32Array,
    painted: Raster,
    dw: number,
    dh: number,
  ) {
    const { width: w, height: h } = painted;
    this.up = new Upsampler(w, h, dw, dh);
    // a plane that is 0 everywhere (pop art's dot areas use one channel) blurs to itself
    const guide = (p: Plane) => (isZero(p) ? p : gaussBlur(p, w, h, 0.8));
    this.gr = guide(painted.r);
    this.gg = guide(painted.g);
    this.gb = guide(painted.b);
    this.same = new Uint8Array(w);
    this.needX = new Uint8Array(dw);
    for (let x = 0; x < dw; x++) this.needX[x] = this.up.fx[x] > 0 ? 5 : 0;
  }

  /**
   * Per source column of the current source row pair: bit 0 its label equals its right neighbour's in the upper row,
   * bit 1 the lower row's below it, bit 2 the lower row's right neighbour's (x1 is the column itself at the edge).
   */
  private readonly same: Uint8Array;
  /** Per output column: the bits of `same` that its bilinear weights need (0 and 2 when it reads a second column). */
  private readonly needX: Uint8Array;
  /** The source row pair (offsets of the upper and lower row) `same` was found for. */
  private sameR0 = -1;
  private sameR1 = -1;

  /** Fill rows r, g, b (length >= output width) for output row y. */
  row(y: number, r: Float32Array, g: Float32Array, b: Float32Array): void {
    const { x0, x1, fx, sw, dw } = this.up;
    const { labels, palette: pal, gr, gg, gb, same, needX } = this;
    const r0 = this.up.y0[y] * sw;
    const r1 = this.up.y1[y] * sw;
    const wy = this.up.fy[y];
    if (this.sameR0 !== r0 || this.sameR1 !== r1) {
      this.sameR0 = r0;
      this.sameR1 = r1;
      for (let a = 0; a < sw; a++) {
        const c = Math.min(a + 1, sw - 1);
        const l = labels[r0 + a];
        same[a] =
          (labels[r0 + c] === l ? 1 : 0) | (labels[r1 + a] === l ? 2 : 0) | (labels[r1 + c] === labels[r1 + a] ? 4 : 0);
      }
    }
    // which neighbours have a non-zero bilinear weight: the column's own (bit 1 with a lower row), the right ones
    const keepX = wy > 0 ? 5 : 1;
    const needY = wy > 0 ? 2 : 0;
    for (let x = 0; x < dw; x++) {
      const a = x0[x];
      const need = (needX[x] & keepX) | needY;
      const l00 = labels[r0 + a];
      // every candidate with a non-zero weight carries one label: its colour (the common case, no guide needed)
      if ((same[a] & need) === need) {
        const o = l00 * 3;
        r[x] = pal[o];
        g[x] = pal[o + 1];
        b[x] = pal[o + 2];
        continue;
      }
      const c = x1[x];
      const wx = fx[x];
      // candidates: only neighbours with a non-zero bilinear weight
      const l01 = wx > 0 ? labels[r0 + c] : l00;
      const l10 = wy > 0 ? labels[r1 + a] : l00;
      const l11 = wx > 0 && wy > 0 ? labels[r1 + c] : l00;
      // the guide colour here (bilinear of the blurred painted image)
      const t0 = gr[r0 + a] + (gr[r0 + c] - gr[r0 + a]) * wx;
      const t1 = gr[r1 + a] + (gr[r1 + c] - gr[r1 + a]) * wx;
      const cr = t0 + (t1 - t0) * wy;
      const u0 = gg[r0 + a] + (gg[r0 + c] - gg[r0 + a]) * wx;
      const u1 = gg[r1 + a] + (gg[r1 + c] - gg[r1 + a]) * wx;
      const cg = u0 + (u1 - u0) * wy;
      const v0 = gb[r0 + a] + (gb[r0 + c] - gb[r0 + a]) * wx;
      const v1 = gb[r1 + a] + (gb[r1 + c] - gb[r1 + a]) * wx;
      const cb = v0 + (v1 - v0) * wy;
      // nearest and second-nearest candidate colours
      let best = l00;
      let d1 = Infinity;
      let second = l00;
      let d2 = Infinity;
      for (let k = 0; k < 4; k++) {
        const l = k === 0 ? l00 : k === 1 ? l01 : k === 2 ? l10 : l11;
        if ((k > 0 && l === l00) || (k > 1 && l === l01) || (k > 2 && l === l10)) continue;
        const o = l * 3;
        const dr = pal[o] - cr;
        const dg = pal[o + 1] - cg;
        const db = pal[o + 2] - cb;
        const d = Math.sqrt(dr * dr + dg * dg + db * db);
        if (d < d1) {
          second = best;
          d2 = d1;
          best = l;
          d1 = d;
        } else if (d < d2) {
          second = l;
          d2 = d;
        }
      }
      const o = best * 3;
      // on the contour (equal distances) blend half-half, fading to the nearest within a short ramp
      let m = 1;
      if (d2 < Infinity && d1 + d2 > 1e-6) {
        const t = (d2 - d1) / (d2 + d1); // 0 on the contour
        m = t >= 0.15 ? 1 : 0.5 + (0.5 * t) / 0.15;
      }
      const q = second * 3;
      r[x] = pal[o] * m + pal[q] * (1 - m);
      g[x] = pal[o + 1] * m + pal[q + 1] * (1 - m);
      b[x] = pal[o + 2] * m + pal[q + 2] * (1 - m);
    }
  }
}

/** Whether every value of a plane is 0 (stops at the first that is not). */
function isZero(p: Plane): boolean {
  for (let i = 0; i < p.length; i++) if (p[i] !== 0) return false;
  return true;
}
