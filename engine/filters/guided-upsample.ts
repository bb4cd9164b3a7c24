import type { Image8, Plane, Raster } from '../raster';
import { boxBlur } from './blur';
import { Upsampler } from './upsampler';

const KR = 0.2126 / 255;
const KG = 0.7152 / 255;
const KB = 0.0722 / 255;

/**
 * Guided upsampling of a work-resolution style image (after He & Sun's fast guided filter). In every small
 * work window the style's luma is fitted as a linear function of the photo's luma, q = a * I + b. Upsampling
 * then adds back the photo's detail that the work resolution lost, scaled by a:
 *   out = bilinear(style) + bilinear(a) * (I_full - bilinear(I_work)).
 * Where the style kept an edge of the photo (a silhouette, an eye, teeth), a ~ 1 and the edge comes back at
 * output sharpness instead of a blurred, stair-stepped 4x enlargement; where it smoothed texture away, a ~ 0
 * and the surface stays smooth (`eps`: how much local variance counts as texture). The detail is grey, so
 * colours stay the style's own.
 *
 * `focus` (0..1 per work pixel, optional) scales a: 0 keeps plain bilinear upsampling (depth-of-field
 * backgrounds stay soft). `maxGain` caps a (1: the photo's detail never comes back stronger than it was). Rows are produced one at a time; no full-size float planes.
 */
export class GuidedUpsampler {
  private readonly a: Plane;
  private readonly up: Upsampler;

  constructor(
    private readonly guide: Plane,
    private readonly src: Raster,
    private readonly full: Image8,
    radius: number,
    eps: number,
    focus?: Plane,
    maxGain = 1.5,
  ) {
    const { width: w, height: h, r, g, b } = src;
    const n = w * h;
    const p = new Float32Array(n);
    const sq = new Float32Array(n);
    const prod = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const I = guide[i];
      const q = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
      p[i] = q;
      sq[i] = I * I;
      prod[i] = I * q;
    }
    const box = (x: Plane) => boxBlur(x, w, h, radius, x);
    const meanI = boxBlur(guide, w, h, radius);
    box(p);
    box(sq);
    box(prod);
    const a = sq; // reuse
    for (let i = 0; i < n; i++) {
      const mi = meanI[i];
      const cov = prod[i] - mi * p[i];
      const v = a[i] - mi * mi;
      // an inverted fit would paint the photo's edges backwards; a steep one (over maxGain) would amplify its noise
      const ai = cov > 0 ? Math.min(maxGain, cov / (v + eps)) : 0;
      a[i] = focus ? ai * focus[i] : ai;
    }
    this.a = box(a);
    this.up = new Upsampler(w, h, full.width, full.height);
  }

  /**
   * Row y of the output as clamped bytes into `oc` (interleaved RGB8, the output's own layout; see rgb8Out). One loop
   * blends all five fields and writes the bytes; each value is rounded to float32 first, as a planar row would keep it.
   */
  rowRGB8(y: number, oc: Uint8ClampedArray): void {
    const { data, width: w } = this.full;
    const { up, src } = this;
    const [r0, r1] = up.pair(src.r, y);
    const [g0, g1] = up.pair(src.g, y);
    const [b0, b1] = up.pair(src.b, y);
    const [a0, a1] = up.pair(this.a, y);
    const [i0, i1] = up.pair(this.guide, y);
    const wy = up.fy[y];
    const f32 = Math.fround;
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      const a = a0[x] + (a1[x] - a0[x]) * wy;
      const I = i0[x] + (i1[x] - i0[x]) * wy;
      const d = a * (KR * data[j] + KG * data[j + 1] + KB * data[j + 2] - I);
      const r = f32(r0[x] + (r1[x] - r0[x]) * wy + d);
      const g = f32(g0[x] + (g1[x] - g0[x]) * wy + d);
      const b = f32(b0[x] + (b1[x] - b0[x]) * wy + d);
      oc[j] = r * 255;
      oc[j + 1] = g * 255;
      oc[j + 2] = b * 255;
    }
  }
}
