import type { Plane } from '../raster';
import { gaussKernelBlur } from './blur';
import { scratchPlane } from './scratch';

/**
 * Linear part of the XDoG line detector, G(k sigma) - G(sigma) (> 0 on the dark side of an edge), meant
 * to be computed at work resolution and thresholded per output pixel with `inkCoverage` after bilinear
 * upsampling: the same lines as a full-resolution DoG of the upsampled luminance, at a fraction of the cost.
 */
export function dogField(L: Plane, w: number, h: number, sigma: number, k = 1.6): Plane {
  const g1 = gaussKernelBlur(L, w, h, sigma, scratchPlane('dog', w * h)); // needed only for the difference
  const g2 = gaussKernelBlur(L, w, h, sigma * k);
  for (let i = 0; i < g2.length; i++) g2[i] -= g1[i];
  return g2;
}

/**
 * Ink coverage in [0,1] (1 = full ink) for a DoG response d (Winnemoeller's XDoG, dark side of edges):
 * `threshold` is the minimum response (contrast) to ink, `softness` the anti-aliasing ramp relative to it.
 */
export function inkCoverage(d: number, threshold: number, softness: number): number {
  if (d <= threshold) return 0; // most pixels: no ink, without the division (same value)
  let v = (d - threshold) / (threshold * softness);
  v = v < 0 ? 0 : v > 1 ? 1 : v;
  return v * v * (3 - 2 * v);
}

/**
 * Mix ink into one pixel's colour: toward `inkLevel` (+ a share of the colour, `tintKeep`) by coverage a.
 * Shared by the fused finishing passes.
 */
export function inkMix(c: number, a: number, inkLevel: number, tintKeep: number): number {
  return c + (inkLevel + c * tintKeep - c) * a;
}
