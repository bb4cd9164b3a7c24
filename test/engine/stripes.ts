/** Fine stripes (a ribbed sweater) and how a render treats them: their amplitude, and any beat (moiré) they make. */
import type { Image8 } from '../../engine/raster';

/** Rec. 709 luma of pixel i of interleaved RGB8, 0..1. */
const lumaAt = (d: Uint8Array, i: number) => (0.2126 * d[i * 3] + 0.7152 * d[i * 3 + 1] + 0.0722 * d[i * 3 + 2]) / 255;

/**
 * A 1024 x 768 grey photo with a patch of fine stripes (a ribbed sweater): luma 0.4 +- 0.3, period `p` px,
 * vertical or horizontal.
 */
export function stripes(p: number, vertical: boolean): Image8 {
  const [w, h] = [1024, 768];
  const data = Buffer.alloc(w * h * 3, 150);
  for (let y = 200; y < 600; y++) {
    for (let x = 300; x < 800; x++) {
      const t = vertical ? x : y;
      data.fill(Math.round(255 * (0.4 + 0.3 * Math.sin((2 * Math.PI * t) / p))), (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  }
  return { data, width: w, height: h };
}

/** Moving average of `v` over `win` samples (valid part only). */
function movingAverage(v: number[], win: number): number[] {
  const out: number[] = [];
  for (let j = 0; j + win <= v.length; j++) out.push(v.slice(j, j + win).reduce((x, y) => x + y, 0) / win);
  return out;
}

/**
 * Across the patch's inner part (40 px in from its edges), the profile perpendicular to the stripes (luma averaged
 * along them): its amplitude at the stripes' own frequency, and the beat: the standard deviation of its moving
 * average over three periods (the stripes themselves average out) minus its 81-px moving average (the slow shading
 * near the patch's border, not a pattern). A stripe aliased by a 2x reduction beats with a period of 7-30 px.
 */
export function stripeProfile(d: Uint8Array, p: number, vertical: boolean): { amplitude: number; beat: number } {
  const w = 1024;
  const [a0, a1, b0, b1] = vertical ? [340, 760, 240, 560] : [240, 560, 340, 760];
  const prof: number[] = [];
  for (let t = a0; t < a1; t++) {
    let s = 0;
    for (let u = b0; u < b1; u++) s += lumaAt(d, vertical ? u * w + t : t * w + u);
    prof.push(s / (b1 - b0));
  }
  let [c, sn] = [0, 0];
  for (let j = 0; j < prof.length; j++) {
    c += prof[j] * Math.cos((2 * Math.PI * (a0 + j)) / p);
    sn += prof[j] * Math.sin((2 * Math.PI * (a0 + j)) / p);
  }
  const win = Math.round(3 * p);
  const fine = movingAverage(prof, win);
  const trend = movingAverage(prof, 81);
  // centre both on the same samples
  const off = (81 - win) >> 1;
  let ss = 0;
  for (let j = 0; j < trend.length; j++) ss += (fine[j + off] - trend[j]) ** 2;
  return { amplitude: (2 * Math.hypot(c, sn)) / prof.length, beat: Math.sqrt(ss / trend.length) };
}
