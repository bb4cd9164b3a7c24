import { gaussBlur, gaussBlurInPlace } from '../filters/blur';
import type { Raster } from '../raster';

/**
 * The backdrop of a shallow-focus film frame is a little hazier and brighter: 94 % of itself plus 6 % of a warm haze
 * (HAZE_ADD, per channel; the 6 % written apart because 1 - 0.94 is not 0.06 in floating point).
 */
const HAZE_KEEP = 0.94;
const HAZE_ADD = [0.06 * 0.95, 0.06 * 0.9, 0.06 * 0.85];

/**
 * Depth of field and rim light from the person mask, in `lit` (in place); returns the focus weight. The backdrop is
 * blurred from backdrop pixels only (each blurred colour divided by the blurred backdrop weight): a plain blur of
 * the whole frame smears the subject's colours outward, a dark halo around a dark helmet, a bright one around hair.
 * The rim light comes after the blur, a thin warm band just inside the silhouette, strongest on the side away from
 * the key light (top left).
 */
export function personFocus(
  person: Float32Array,
  lit: Raster,
  ww: number,
  wh: number,
  s: number,
  bs: number,
): Float32Array {
  const n = ww * wh;
  const focus = gaussBlur(person, ww, wh, Math.max(0.8, 1.5 * s));
  const back = new Float32Array(n);
  for (let i = 0; i < n; i++) back[i] = 1 - person[i];
  const weight = back; // blurred in place below, once the colours have been weighed by it
  const { r, g, b } = lit;
  const pr = new Float32Array(n);
  const pg = new Float32Array(n);
  const pb = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    pr[i] = r[i] * back[i];
    pg[i] = g[i] * back[i];
    pb[i] = b[i] * back[i];
  }
  // the weighed colours and the weight are needed only blurred: blurred where they are
  gaussBlurInPlace(weight, ww, wh, bs);
  const br = gaussBlurInPlace(pr, ww, wh, bs);
  const bg = gaussBlurInPlace(pg, ww, wh, bs);
  const bb = gaussBlurInPlace(pb, ww, wh, bs);
  const [hr, hg, hb] = HAZE_ADD;
  for (let i = 0; i < n; i++) {
    const m = focus[i];
    const k = 1 - m;
    const wgt = weight[i];
    // inside a large subject no backdrop is near: the pixel itself stands in (it is hidden by m there)
    const near = wgt > 0.02;
    r[i] = r[i] * m + ((near ? br[i] / wgt : r[i]) * HAZE_KEEP + hr) * k;
    g[i] = g[i] * m + ((near ? bg[i] / wgt : g[i]) * HAZE_KEEP + hg) * k;
    b[i] = b[i] * m + ((near ? bb[i] / wgt : b[i]) * HAZE_KEEP + hb) * k;
  }
  const soft = gaussBlur(person, ww, wh, Math.max(0.8, 2.5 * s));
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const band = Math.max(0, person[i] - soft[i]) * 3.2 * person[i];
      if (band <= 0) continue;
      // the mask's outward normal, from its smoothed gradient
      const gx = soft[y * ww + Math.min(ww - 1, x + 1)] - soft[y * ww + Math.max(0, x - 1)];
      const gy = soft[Math.min(wh - 1, y + 1) * ww + x] - soft[Math.max(0, y - 1) * ww + x];
      const gl = hypot2(gx, gy) || 1;
      const away = 0.55 + 0.45 * ((-gx * 0.6 + gy * 0.4) / gl) * -1; // outward normal pointing right/down -> away from key
      const a = Math.min(0.55, band) * Math.max(0.2, away);
      lit.r[i] += (1.0 - lit.r[i]) * a;
      lit.g[i] += (0.92 - lit.g[i]) * a;
      lit.b[i] += (0.8 - lit.b[i]) * a;
    }
  }
  return focus;
}

/**
 * Math.hypot(a, b), computed as V8 computes it (the larger magnitude factored out, the squares summed with Kahan's
 * compensation; the same value on 2 * 10^7 random pairs), without the call's boxed arguments (2 MB of garbage a
 * 3d render at 1024 px).
 */
function hypot2(a: number, b: number): number {
  const x = Math.abs(a);
  const y = Math.abs(b);
  if (x === Number.POSITIVE_INFINITY || y === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
  const max = x > y ? x : y;
  if (max === 0) return 0;
  // with two terms Kahan's compensation stays 0: the plain sum of the scaled squares
  const n0 = x / max;
  const n1 = y / max;
  return Math.sqrt(n0 * n0 + n1 * n1) * max;
}
