import { celQuantize, gradedPalette, paintCel } from '../filters/cel';
import { LabelUpsampler } from '../filters/label-upsample';
import { saturate, tone } from '../filters/color';
import { type Image8, luma, type Raster, rowBuffers } from '../raster';
import { abstractRegions, skinAnchors, printInk, simplifyBackground, toWork } from './common';
import type { Scene } from '../analysis/scene';
import { pixelMath } from '../pixel-math';

// bound once at load (see pixel-math.ts)
const { byte, halftoneDistance, inkCoverage, inkMix, smoothstep } = pixelMath;

/**
 * Comic book: punchy flat colours (small palette), halftone dots in the shadows and bold black inking.
 */
export function comic(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const ww = work.width;
  const wh = work.height;
  abstractRegions(work, s, 1.2);
  const Lw = luma(work);
  const person = scene && simplifyBackground(work, s, scene);
  tone(work, 0.95, 1.2, 0.5, 0);
  saturate(work, 1.55);
  const cel = celQuantize(work, { chromaK: 6, bands: [0.22, 0.5, 0.8], minRegion: Math.round(100 * s * s), lumaWeight: 0.12, smoothFlat: 12 * s, thinStrips: Math.max(1, Math.round(3 * s)), anchors: skinAnchors(work, scene, s) });
  const grade = (img: Raster) => saturate(img, 1.2);
  grade(paintCel(cel, work));
  const colours = new LabelUpsampler(cel.labels, gradedPalette(cel.palette, grade), work, w, h);
  // Halftone shadows: dots on a 45-degree grid whose radius grows with darkness.
  const { D, features, inv, up } = printInk(Lw, ww, wh, w, h, scene, person, s, { line: [0.8, 1.25], featureWeight: 1.1, period: [3, 5.5] });
  const out = Buffer.allocUnsafe(w * h * 3);
  const [rr, gg, bb, ll, dd, ff, pp] = rowBuffers(w, 7);
  pp.fill(1);
  for (let y = 0; y < h; y++) {
    colours.row(y, rr, gg, bb);
    up.row(Lw, y, ll);
    up.row(D, y, dd);
    if (features) features.row(y, ff);
    if (person) up.row(person, y, pp); // halftone shadows belong to the subject; behind it they stay sparse
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      let r = rr[x];
      let g = gg[x];
      let b = bb[x];
      const dark = (1 - smoothstep(0.18, 0.5, ll[x])) * (person ? 0.1 + 0.9 * pp[x] : 1);
      if (dark > 0.02) {
        const d = halftoneDistance(x, y, inv);
        const radius = 0.42 * Math.sqrt(dark);
        const a = (1 - smoothstep(radius - 0.08, radius + 0.08, d)) * 0.55;
        r -= r * a;
        g -= g * a;
        b -= b * a * 0.8;
      }
      const a = Math.max(inkCoverage(dd[x], 0.01, 1.0), ff[x]);
      out[j] = byte(inkMix(r, a, 0.04, 0));
      out[j + 1] = byte(inkMix(g, a, 0.04, 0));
      out[j + 2] = byte(inkMix(b, a, 0.04, 0));
    }
  }
  return out;
}
