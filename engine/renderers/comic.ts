import type { Scene } from '../analysis/scene';
import { celQuantize, gradedPalette, paintCel } from '../filters/cel';
import { saturate, tone } from '../filters/color';
import { LabelUpsampler } from '../filters/label-upsample';
import { pixelMath } from '../pixel-math';
import { type Image8, luma, type Raster, rgb8Out, rowBuffers } from '../raster';
import { abstractRegions, INKED_BG_LINES, inkedCel, personWeight, printInk, toWork } from './common';

// bound once at load (see pixel-math.ts)
const { halftoneDistance, inkCoverage, inkMix, smoothstep } = pixelMath;

/**
 * Comic book: punchy flat colours (small palette), halftone dots in the shadows and bold black inking.
 */
export function comic(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const ww = work.width;
  const wh = work.height;
  abstractRegions(work, s, 1.2);
  // no second abstraction behind people: it turned rooms and objects (a motorcycle beside its rider) into flat blobs;
  // their thinned lines (focusLines) keep the eye on the people
  const person = scene && personWeight(scene, work.width, work.height, s);
  // lines and shadows come from the simplified backdrop: behind people they follow its calm shapes
  const Lw = luma(work);
  tone(work, 0.95, 1.2, 0.5, 0);
  saturate(work, 1.55);
  const cel = celQuantize(work, inkedCel(work, scene, s, { bands: [0.22, 0.5, 0.8], minRegion: 100 }));
  const grade = (img: Raster) => saturate(img, 1.2);
  grade(paintCel(cel, work));
  const colours = new LabelUpsampler(cel.labels, gradedPalette(cel.palette, grade), work, w, h);
  // Halftone shadows: dots on a 45-degree grid whose radius grows with darkness.
  const { D, features, inv, up } = printInk(Lw, ww, wh, w, h, scene, person, s, {
    line: [0.8, 1.25],
    featureWeight: 1.1,
    period: [3, 5.5],
    bgKeep: INKED_BG_LINES,
  });
  const { out, oc } = rgb8Out(w, h);
  const [rr, gg, bb, ff, noPerson] = rowBuffers(w, 5);
  for (let y = 0; y < h; y++) {
    colours.row(y, rr, gg, bb);
    // the work-size fields' two source rows, blended in the loop (the upsampler keeps them)
    const [l0, l1] = up.pair(Lw, y);
    const [d0, d1] = up.pair(D, y);
    // halftone shadows belong to the subject; behind it they stay sparse
    const [p0, p1] = person ? up.pair(person, y) : [noPerson, noPerson];
    const fy = up.fy[y];
    if (features) features.row(y, ff);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      let r = rr[x];
      let g = gg[x];
      let b = bb[x];
      const l = l0[x] + (l1[x] - l0[x]) * fy;
      const pv = p0[x] + (p1[x] - p0[x]) * fy;
      const dark = (1 - smoothstep(0.18, 0.5, l)) * (person ? 0.1 + 0.9 * pv : 1);
      if (dark > 0.02) {
        const d = halftoneDistance(x, y, inv);
        const radius = 0.42 * Math.sqrt(dark);
        const a = (1 - smoothstep(radius - 0.08, radius + 0.08, d)) * 0.55;
        r -= r * a;
        g -= g * a;
        b -= b * a * 0.8;
      }
      const a = Math.max(inkCoverage(d0[x] + (d1[x] - d0[x]) * fy, 0.01, 1.0), ff[x]);
      oc[j] = inkMix(r, a, 0.04, 0) * 255;
      oc[j + 1] = inkMix(g, a, 0.04, 0) * 255;
      oc[j + 2] = inkMix(b, a, 0.04, 0) * 255;
    }
  }
  return out;
}
