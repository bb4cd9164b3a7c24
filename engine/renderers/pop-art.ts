import { faceRegionsAt, type Scene } from '../analysis/scene';
import { type HSV, saturate } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { LabelUpsampler } from '../filters/label-upsample';
import { paintLabels } from '../filters/quantize';
import { pixelMath } from '../pixel-math';
import { cloneRaster, createRaster, type Image8, luma, rowBuffers } from '../raster';
import { abstractRegions, printInk, simplifyBackground, toWork } from './common';

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

/** Index into POP of the printing ink nearest to a hue. */
function popIndex(hue: number): number {
  let best = 0;
  let bd = 9;
  for (let k = 0; k < POP.length; k++) {
    const d = Math.abs(hue - POP[k][0]);
    if (d < bd) {
      bd = d;
      best = k;
    }
  }
  return best;
}

/** Flat colours as labels: INK, NEUTRAL_MID, SKIN, then the POP inks. */
const FLAT_COLOURS: ReadonlyArray<readonly [number, number, number]> = [
  INK,
  NEUTRAL_MID,
  SKIN,
  ...POP.map((p) => p[1]),
];
const L_INK = 0;
const L_NEUTRAL = 1;
const L_SKIN = 2;
const L_POP = 3;
/** Dot states as labels: none, paper only (neutral highlights), Ben-Day dots. */
const DOT_LEVELS = [0, 0.0001, 1];

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
export function popArt(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  abstractRegions(work, s, 1.3);
  const person = scene && simplifyBackground(work, s, scene);
  saturate(work, 1.4);
  const ww = work.width;
  const wh = work.height;
  const Lw = luma(work);
  const t0 = Math.max(0.12, quantile(Lw, 0.16));
  // Dots mark the highlights: the brightest share of the picture, but never mid-tones of a dark (night) photo.
  const t1 = Math.max(t0 + 0.1, quantile(Lw, 0.62), 0.4);
  // Hue is decided on a region-wide average: shading inside one object (the folds of an orange suit) must not
  // flip it between neighbouring inks, which paints camouflage patches.
  const hueSource = domainTransform(cloneRaster(work), 40 * s, 0.3, 2);
  const hsvR: HSV = { h: 0, s: 0, v: 0 };
  const colourLabels = new Uint16Array(ww * wh);
  const dotLabels = new Uint16Array(ww * wh);
  const hsv: HSV = { h: 0, s: 0, v: 0 };
  const skinSum = [0, 0, 0, 0];
  const faceSkin = scene && faceRegionsAt(scene, ww, wh, 1).skin;
  for (let i = 0; i < ww * wh; i++) {
    const l = Lw[i];
    rgbToHsv(work.r[i], work.g[i], work.b[i], hsv);
    let c = L_INK;
    let dot = 0;
    if (l >= t0) {
      const neutral = hsv.s < 0.2;
      // the face's skin (by the mesh) is skin whatever its colour: dark skin is darker and more saturated
      const face = faceSkin !== undefined && faceSkin[i] > 0.5;
      const skinLike = !neutral && (face || (hsv.h < 0.75 && hsv.s < 0.6 && l > t0 + 0.1));
      if (neutral) c = L_NEUTRAL;
      else if (skinLike) {
        c = L_SKIN;
        if (face) {
          skinSum[0] += work.r[i];
          skinSum[1] += work.g[i];
          skinSum[2] += work.b[i];
          skinSum[3]++;
        }
      } else c = L_POP + popIndex(rgbToHsv(hueSource.r[i], hueSource.g[i], hueSource.b[i], hsvR).h);
      if (l >= t1) dot = neutral ? 1 : 2; // neutral highlights: paper only
    }
    colourLabels[i] = c;
    dotLabels[i] = dot;
  }
  const palette = new Float32Array(FLAT_COLOURS.flat());
  // the people's own skin colour: one peach ink for every skin turned dark skin pale
  if (skinSum[3] > 0) {
    for (let c = 0; c < 3; c++) palette[L_SKIN * 3 + c] = skinSum[c] / skinSum[3];
  }
  const flat = createRaster(ww, wh);
  paintLabels(colourLabels, palette, flat);
  const dotPalette = new Float32Array(DOT_LEVELS.flatMap((d) => [d, 0, 0]));
  const dotField = createRaster(ww, wh);
  paintLabels(dotLabels, dotPalette, dotField);
  // region borders and dot-area borders stay smooth when enlarged (no stair steps at 2048 px)
  const colours = new LabelUpsampler(colourLabels, palette, flat, w, h);
  const dotAreas = new LabelUpsampler(dotLabels, dotPalette, dotField, w, h);
  const spare = new Float32Array(w);
  const { D, features, inv, up } = printInk(Lw, ww, wh, w, h, scene, person, s, {
    line: [0.9, 1.6],
    featureWeight: 1.3,
    period: [3.2, 6],
  });
  const out = Buffer.allocUnsafe(w * h * 3);
  const [rr, gg, bb, mm, dd, ff] = rowBuffers(w, 6);
  for (let y = 0; y < h; y++) {
    colours.row(y, rr, gg, bb);
    dotAreas.row(y, mm, spare, spare);
    up.row(D, y, dd);
    if (features) features.row(y, ff);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      let r = rr[x];
      let g = gg[x];
      let b = bb[x];
      const dm = mm[x];
      if (dm > 0) {
        // halftoneDistance(x, y, inv) written out: this loop is past V8's inlining budget, and the call boxed its
        // arguments and result (5 MB of garbage a render at 1024 px)
        const u = (x * Math.SQRT1_2 + y * Math.SQRT1_2) * inv;
        const v = (x * Math.SQRT1_2 - y * Math.SQRT1_2) * inv;
        const du = u - Math.round(u);
        const dv = v - Math.round(v);
        const d = Math.sqrt(du * du + dv * dv);
        const cov = dm < 0.01 ? 0 : 1 - smoothstep(0.27, 0.33, d);
        const m = smoothstep(0, 1, dm);
        r = r * (1 - m) + m * (PAPER[0] + (r - PAPER[0]) * cov);
        g = g * (1 - m) + m * (PAPER[1] + (g - PAPER[1]) * cov);
        b = b * (1 - m) + m * (PAPER[2] + (b - PAPER[2]) * cov);
      }
      const a = Math.max(inkCoverage(dd[x], 0.012, 0.8), ff[x]);
      out[j] = byte(inkMix(r, a, INK[0], 0));
      out[j + 1] = byte(inkMix(g, a, INK[0], 0));
      out[j + 2] = byte(inkMix(b, a, INK[0], 0));
    }
  }
  return out;
}
