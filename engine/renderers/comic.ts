import { resizePlane } from '../filters/blur';
import { saturate, tone } from '../filters/color';
import { dogInk } from '../filters/lines';
import { celQuantize, paintCel } from '../filters/cel';
import { luma, type Raster, scaleOf, smoothstep } from '../raster';
import { abstractRegions, applyInk, toWork, upTo } from './common';

/**
 * Comic book: punchy flat colours (small palette), halftone dots in the shadows and bold black inking.
 */
export function comic(img: Raster): Raster {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  abstractRegions(work, s, 1.2);
  const Lw = luma(work);
  tone(work, 0.95, 1.2, 0.5, 0);
  saturate(work, 1.55);
  const cel = celQuantize(work, { chromaK: 6, bands: [0.22, 0.5, 0.8], minRegion: Math.round(100 * s * s), lumaWeight: 0.12 });
  paintCel(cel, work);
  saturate(work, 1.2);
  const out = upTo(work, w, h);
  const sc = scaleOf(w, h);
  const L = resizePlane(Lw, work.width, work.height, w, h);
  // Halftone shadows: dots on a 45-degree grid whose radius grows with darkness.
  const period = Math.max(3, 5.5 * sc);
  const inv = 1 / period;
  const c45 = Math.SQRT1_2;
  const { r, g, b } = out;
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      const l = L[i];
      const dark = 1 - smoothstep(0.18, 0.5, l);
      if (dark <= 0.02) continue;
      const u = (x * c45 + y * c45) * inv;
      const v = (x * c45 - y * c45) * inv;
      const du = u - Math.round(u);
      const dv = v - Math.round(v);
      const d = Math.sqrt(du * du + dv * dv); // 0 at dot centre, ~0.707 at cell corner
      const radius = 0.42 * Math.sqrt(dark);
      const cov = 1 - smoothstep(radius - 0.08, radius + 0.08, d);
      const a = cov * 0.55;
      r[i] -= r[i] * a;
      g[i] -= g[i] * a;
      b[i] -= b[i] * a * 0.8;
    }
  }
  const ink = dogInk(L, w, h, Math.max(0.8, 1.25 * sc), 0.01, 1.0);
  return applyInk(out, ink, 1, 0.04, 0);
}
