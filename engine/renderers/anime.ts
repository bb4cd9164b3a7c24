import type { Scene } from '../analysis/scene';
import { celQuantize, gradedPalette, paintCel } from '../filters/cel';
import { saturate, tone, vibrance } from '../filters/color';
import { LabelUpsampler } from '../filters/label-upsample';
import { dogField } from '../filters/lines';
import { pixelMath } from '../pixel-math';
import { type Image8, luma, type Raster, rowBuffers, scaleOf, Upsampler } from '../raster';
import { abstractRegions, featureInk, focusLines, INKED_BG_LINES, inkedCel, personWeight, toWork } from './common';

// bound once at load (see pixel-math.ts)
const { byte, inkCoverage, inkMix } = pixelMath;

/**
 * Anime: bright cel shading (chroma regions x luminance bands on an edge-preserving abstraction,
 * islands merged) with fine dark outlines tinted by the local colour.
 */
export function anime(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const ww = work.width;
  const wh = work.height;
  // a tighter range keeps low-contrast structure (lattice towers at dusk, fur) that line art then draws
  abstractRegions(work, s, 1.6, 0.6);
  // no second abstraction behind people: it turned rooms and objects (a motorcycle beside its rider) into flat blobs;
  // their thinned lines (focusLines) keep the eye on the people
  const person = scene && personWeight(scene, work.width, work.height, s);
  // the lines come from the simplified backdrop: behind people they follow its calm shapes, not the photo's clutter
  const Lw = luma(work);
  tone(work, 0.8, 1.05, 0.5, 0.02);
  const cel = celQuantize(
    work,
    inkedCel(work, scene, s, { bands: [0.3, 0.6, 0.86], minRegion: 140, smoothFlatRange: 0.05 }),
  );
  const grade = (img: Raster) => {
    vibrance(img, 1.2); // muted fur and skin gain colour, vivid colours do not clip
    saturate(img, 1.15);
  };
  grade(paintCel(cel, work));
  const colours = new LabelUpsampler(cel.labels, gradedPalette(cel.palette, grade), work, w, h);
  // outline width is set in output pixels, the DoG runs at work resolution
  const D = dogField(Lw, ww, wh, (Math.max(0.85, 1.0 * scaleOf(w, h)) * ww) / w);
  if (scene && person) focusLines(D, ww, wh, person, scene, s, INKED_BG_LINES);
  const features = featureInk(scene, w, 1);
  const up = new Upsampler(ww, wh, w, h);
  const out = Buffer.allocUnsafe(w * h * 3);
  const [rr, gg, bb, dd, ff] = rowBuffers(w, 5);
  for (let y = 0; y < h; y++) {
    colours.row(y, rr, gg, bb);
    up.row(D, y, dd);
    if (features) features.row(y, ff);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      const a = Math.max(inkCoverage(dd[x], 0.008, 1.1), ff[x]) * 0.95;
      out[j] = byte(inkMix(rr[x], a, 0.04, 0.2));
      out[j + 1] = byte(inkMix(gg[x], a, 0.04, 0.2));
      out[j + 2] = byte(inkMix(bb[x], a, 0.04, 0.2));
    }
  }
  return out;
}
