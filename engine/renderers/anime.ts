import { resizePlane } from '../filters/blur';
import { celQuantize, paintCel } from '../filters/cel';
import { saturate, tone } from '../filters/color';
import { dogInk } from '../filters/lines';
import { luma, type Raster, scaleOf } from '../raster';
import { abstractRegions, applyInk, toWork, upTo } from './common';

/**
 * Anime: bright cel shading (chroma regions x luminance bands on an edge-preserving abstraction,
 * islands merged) with fine dark outlines tinted by the local colour.
 */
export function anime(img: Raster): Raster {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  abstractRegions(work, s, 1.6);
  const Lw = luma(work);
  tone(work, 0.8, 1.05, 0.5, 0.02);
  const cel = celQuantize(work, { chromaK: 6, bands: [0.3, 0.6, 0.86], minRegion: Math.round(140 * s * s), lumaWeight: 0.12 });
  paintCel(cel, work);
  saturate(work, 1.3);
  const out = upTo(work, w, h);
  const sc = scaleOf(w, h);
  const L = resizePlane(Lw, work.width, work.height, w, h);
  const ink = dogInk(L, w, h, Math.max(0.85, 1.0 * sc), 0.008, 1.1);
  return applyInk(out, ink, 0.95, 0.04, 0.2);
}
