import type { Plane } from '../raster';
import { gaussBlur } from './blur';

/**
 * Ink-line mask from a (pre-smoothed) luminance plane by thresholded difference of Gaussians
 * (Winnemöller's XDoG, dark side of edges). Returns ink coverage in [0,1] (1 = full ink).
 *
 * sigma: line width scale in px; threshold: minimum DoG response (contrast) to ink;
 * softness: width of the anti-aliasing ramp relative to threshold.
 */
export function dogInk(L: Plane, w: number, h: number, sigma: number, threshold: number, softness = 1.5, k = 1.6): Plane {
  // two box passes per Gaussian: a tent-shaped kernel is plenty for line extraction and 1/3 cheaper
  const g1 = gaussBlur(L, w, h, sigma, 2);
  const g2 = gaussBlur(L, w, h, sigma * k, 2);
  const out = g1; // reuse
  const t0 = threshold;
  const t1 = threshold * (1 + softness);
  const inv = 1 / (t1 - t0);
  for (let i = 0; i < out.length; i++) {
    const d = g2[i] - g1[i]; // > 0 on the dark side of an edge
    let v = (d - t0) * inv;
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    out[i] = v * v * (3 - 2 * v);
  }
  return out;
}

/** Sobel gradient magnitude. */
export function sobel(L: Plane, w: number, h: number): Plane {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const ym = (y > 0 ? y - 1 : 0) * w;
    const y0 = y * w;
    const yp = (y < h - 1 ? y + 1 : h - 1) * w;
    for (let x = 0; x < w; x++) {
      const xm = x > 0 ? x - 1 : 0;
      const xp = x < w - 1 ? x + 1 : w - 1;
      const gx = L[ym + xp] + 2 * L[y0 + xp] + L[yp + xp] - L[ym + xm] - 2 * L[y0 + xm] - L[yp + xm];
      const gy = L[yp + xm] + 2 * L[yp + x] + L[yp + xp] - L[ym + xm] - 2 * L[ym + x] - L[ym + xp];
      out[y0 + x] = Math.sqrt(gx * gx + gy * gy) * 0.25;
    }
  }
  return out;
}
