import { domainTransform } from '../filters/edge-aware';
import { type Image8, type Raster, rasterFromRGB8, workSize } from '../raster';

/**
 * A style renders interleaved RGB8 into interleaved RGB8 of the same size (pure, deterministic).
 * Styles abstract at a work resolution and finish at full size in one fused pass (no full-size float planes).
 */
export type StyleFn = (img: Image8) => Buffer;

/** Long side of the internal work resolution used for region abstraction (flat colour, lighting). */
export const WORK_LONG = 480;

/** Downscale to the work resolution; returns the work raster and its scale relative to 512 px. */
export function toWork(img: Image8, opts: { smooth?: boolean } = {}): { work: Raster; s: number } {
  let maxLong = WORK_LONG;
  // Textured styles (`smooth`: watercolor, oil paint, pixel art) abstract small outputs (previews) at 3/4 of
  // their size: their washes and blocks upsample invisibly under textures drawn at full size by the finishing
  // pass, and a thumbnail batch costs less. Flat-colour styles keep full size for hard region borders, and
  // 3d for crisp faces (its whole look is the upsampled work image).
  const long = Math.max(img.width, img.height);
  if (opts.smooth && long < maxLong) maxLong = Math.max(Math.min(long, 160), Math.round(long * 0.75));
  const ws = workSize(img.width, img.height, maxLong);
  return { work: rasterFromRGB8(img, ws.w, ws.h), s: Math.max(ws.w, ws.h) / 512 };
}

/**
 * Edge-preserving abstraction: flattens texture and noise (mottled backgrounds, skin pores, fur)
 * into smooth regions while keeping object boundaries. Two domain-transform passes: a wide one
 * with a loose range to kill texture, a narrow one to re-sharpen borders. `range` scales both ranges (lower keeps
 * weaker edges: thin structures against a dark sky).
 */
export function abstractRegions(work: Raster, s: number, strength = 1, range = 1): Raster {
  domainTransform(work, 28 * s * strength, 0.22 * range, 3);
  domainTransform(work, 10 * s * strength, 0.12 * range, 2);
  return work;
}

/**
 * Mix ink into one pixel's colour: toward `inkLevel` (+ a share of the colour, `tintKeep`) by coverage a.
 * Shared by the fused finishing passes.
 */
export function inkMix(c: number, a: number, inkLevel: number, tintKeep: number): number {
  return c + (inkLevel + c * tintKeep - c) * a;
}
