import { domainTransform } from '../filters/edge-aware';
import { cloneRaster, type Raster, resizeRaster, workSize } from '../raster';

/** A style renders a full-resolution raster into a new raster of the same size (pure, deterministic). */
export type StyleFn = (img: Raster) => Raster;

/** Long side of the internal work resolution used for region abstraction (flat colour, lighting). */
export const WORK_LONG = 480;

/** Downscale to the work resolution; returns the work raster and its scale relative to 512 px. */
export function toWork(img: Raster, maxLong = WORK_LONG): { work: Raster; s: number } {
  const ws = workSize(img.width, img.height, maxLong);
  const work = ws.f === 1 ? cloneRaster(img) : resizeRaster(img, ws.w, ws.h);
  return { work, s: Math.max(ws.w, ws.h) / 512 };
}

/**
 * Edge-preserving abstraction: flattens texture and noise (mottled backgrounds, skin pores, fur)
 * into smooth regions while keeping object boundaries. Two domain-transform passes: a wide one
 * with a loose range to kill texture, a narrow one to re-sharpen borders.
 */
export function abstractRegions(work: Raster, s: number, strength = 1): Raster {
  domainTransform(work, 28 * s * strength, 0.22, 3);
  domainTransform(work, 10 * s * strength, 0.12, 2);
  return work;
}

/** Multiply ink into an image: colour -> colour * (1 - ink * strength) blended toward `inkLevel`. */
export function applyInk(img: Raster, ink: Float32Array, strength: number, inkLevel = 0.08, tintKeep = 0): Raster {
  const { r, g, b } = img;
  for (let i = 0; i < ink.length; i++) {
    const a = ink[i] * strength;
    if (a <= 0) continue;
    const ir = inkLevel + r[i] * tintKeep;
    const ig = inkLevel + g[i] * tintKeep;
    const ib = inkLevel + b[i] * tintKeep;
    r[i] += (ir - r[i]) * a;
    g[i] += (ig - g[i]) * a;
    b[i] += (ib - b[i]) * a;
  }
  return img;
}

export function upTo(img: Raster, w: number, h: number): Raster {
  return resizeRaster(img, w, h);
}
