import { type HSV, saturate } from '../filters/color';
import { dogField } from '../filters/lines';
import { createRaster, type Image8, luma, scaleOf, Upsampler } from '../raster';
import { abstractRegions, toWork } from './common';
import { pixelMath } from '../pixel-math';

// bound once at load (see pixel-math.ts)
const { byte, inkCoverage, inkMix, rgbToHsv, smoothstep } = pixelMath;

/** Pop palette: hue (0..6 HSV sextants) -> printing-ink colour. */
const POP: ReadonlyArray<readonly [number, readonly [number, number, number]]> = [
  [0.0, [0.93, 0.11, 0.14]], // red
  [0.5, [0.98, 0.45, 0.05]], // orange
  [1.0, [1.0, 0.85, 0.0]], // yellow
  [2.0, [0.1, 0.7, 0.3]], // green
  [3.1, [0.0, 0.68, 0.94]], // cyan
  [3.9, [0.05, 0.3, 0.85]], // blue
  [5.0, [0.93, 0.2, 0.6]], // magenta
  [6.0, [0.93, 0.11, 0.14]], // red again (wrap)
];
const SKIN: readonly [number, number, number] = [1.0, 0.78, 0.62];
const INK: readonly [number, number, number] = [0.07, 0.07, 0.1];
const PAPER: readonly [number, number, number] = [1.0, 0.98, 0.92];
const NEUTRAL_MID: readonly [number, number, number] = [0.55, 0.75, 0.95];

function popColour(hue: number): readonly [number, number, number] {
  let best = POP[0][1];
  let bd = 9;
  for (const [ph, c] of POP) {
    const d = Math.abs(hue - ph);
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

function quantile(L: Float32Array, q: number): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < L.length; i++) hist[Math.min(255, Math.max(0, (L[i] * 255) | 0))]++;
  const target = L.length * q;
  let acc = 0;
  for (let k = 0; k < 256; k++) {
    acc += hist[k];
    if (acc >= target) return k / 255;
  }
  return 1;
}

/**
 * Pop art (Lichtenstein-style screen print): hues snapped to a handful of printing inks,
 * three tone levels (black ink / solid colour / Ben-Day dots on paper) and heavy outlines.
 */
export function popArt(img: Image8): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  abstractRegions(work, s, 1.3);
  saturate(work, 1.4);
  const ww = work.width;
  const wh = work.height;
  const Lw = luma(work);
  const t0 = Math.max(0.12, quantile(Lw, 0.16));
  const t1 = Math.max(t0 + 0.1, quantile(Lw, 0.62));
  const flat = createRaster(ww, wh);
  const dots = new Float32Array(ww * wh);
  const hsv: HSV = { h: 0, s: 0, v: 0 };
  for (let i = 0; i < ww * wh; i++) {
    const l = Lw[i];
    rgbToHsv(work.r[i], work.g[i], work.b[i], hsv);
    let c: readonly [number, number, number];
    let dot = 0;
    if (l < t0) c = INK;
    else {
      const neutral = hsv.s < 0.2;
      const skinLike = !neutral && hsv.h < 0.75 && hsv.s < 0.6 && l > t0 + 0.1;
      c = neutral ? NEUTRAL_MID : skinLike ? SKIN : popColour(hsv.h);
      if (l >= t1) dot = 1;
      if (neutral && l >= t1) dot = 0.0001; // paper only
    }
    flat.r[i] = c[0];
    flat.g[i] = c[1];
    flat.b[i] = c[2];
    dots[i] = dot;
  }
  const sc = scaleOf(w, h);
  const D = dogField(Lw, ww, wh, (Math.max(0.9, 1.6 * sc) * ww) / w);
  const period = Math.max(3.2, 6 * sc);
  const inv = 1 / period;
  const c45 = Math.SQRT1_2;
  const up = new Upsampler(ww, wh, w, h);
  const out = Buffer.allocUnsafe(w * h * 3);
  const rr = new Float32Array(w);
  const gg = new Float32Array(w);
  const bb = new Float32Array(w);
  const mm = new Float32Array(w);
  const dd = new Float32Array(w);
  for (let y = 0; y < h; y++) {
    up.row(flat.r, y, rr);
    up.row(flat.g, y, gg);
    up.row(flat.b, y, bb);
    up.row(dots, y, mm);
    up.row(D, y, dd);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      let r = rr[x];
      let g = gg[x];
      let b = bb[x];
      const dm = mm[x];
      if (dm > 0) {
        const u = (x * c45 + y * c45) * inv;
        const v = (x * c45 - y * c45) * inv;
        const du = u - Math.round(u);
        const dv = v - Math.round(v);
        const d = Math.sqrt(du * du + dv * dv);
        const cov = dm < 0.01 ? 0 : 1 - smoothstep(0.27, 0.33, d);
        const m = smoothstep(0, 1, dm);
        r = r * (1 - m) + m * (PAPER[0] + (r - PAPER[0]) * cov);
        g = g * (1 - m) + m * (PAPER[1] + (g - PAPER[1]) * cov);
        b = b * (1 - m) + m * (PAPER[2] + (b - PAPER[2]) * cov);
      }
      const a = inkCoverage(dd[x], 0.012, 0.8);
      out[j] = byte(inkMix(r, a, INK[0], 0));
      out[j + 1] = byte(inkMix(g, a, INK[0], 0));
      out[j + 2] = byte(inkMix(b, a, INK[0], 0));
    }
  }
  return out;
}
