import { gaussBlur, resizePlane } from '../filters/blur';
import { saturate, tone } from '../filters/color';
import { dogInk } from '../filters/lines';
import { fbm, valueNoise, whiteNoise } from '../filters/noise';
import { createRaster, luma, type Raster, scaleOf, smoothstep } from '../raster';
import { abstractRegions, toWork, upTo } from './common';

/**
 * Watercolor: simplified washes with wobbly, bled edges, pigment darkening at wash borders,
 * paper granulation, a faint pencil under-drawing and an irregular unpainted paper margin.
 */
export function watercolor(img: Raster): Raster {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  abstractRegions(work, s, 1.1);
  saturate(work, 1.15);
  const ww = work.width;
  const wh = work.height;
  // Wobble: displace sampling by low-frequency noise so washes bleed past hard borders.
  const nx = valueNoise(ww, wh, Math.max(4, 18 * s), 31);
  const ny = valueNoise(ww, wh, Math.max(4, 18 * s), 37);
  const amp = 3.2 * s;
  const warped = createRaster(ww, wh);
  for (let y = 0, i = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++, i++) {
      let fx = x + (nx[i] - 0.5) * 2 * amp;
      let fy = y + (ny[i] - 0.5) * 2 * amp;
      fx = fx < 0 ? 0 : fx > ww - 1 ? ww - 1 : fx;
      fy = fy < 0 ? 0 : fy > wh - 1 ? wh - 1 : fy;
      const x0 = fx | 0;
      const y0 = fy | 0;
      const x1 = x0 < ww - 1 ? x0 + 1 : x0;
      const y1 = y0 < wh - 1 ? y0 + 1 : y0;
      const ax = fx - x0;
      const ay = fy - y0;
      const i00 = y0 * ww + x0;
      const i01 = y0 * ww + x1;
      const i10 = y1 * ww + x0;
      const i11 = y1 * ww + x1;
      for (const [src, dst] of [
        [work.r, warped.r],
        [work.g, warped.g],
        [work.b, warped.b],
      ] as const) {
        const t = src[i00] + (src[i01] - src[i00]) * ax;
        const btm = src[i10] + (src[i11] - src[i10]) * ax;
        dst[i] = t + (btm - t) * ay;
      }
    }
  }
  // Pigment density (Bousseau et al.): paper granulation, large blotches and wet-edge darkening,
  // computed at work resolution and upsampled once.
  const Lw = luma(warped);
  const Lb = gaussBlur(Lw, ww, wh, Math.max(1.2, 3 * s));
  const granule = fbm(ww, wh, Math.max(2, 4 * s), 2, 41);
  const blotch = valueNoise(ww, wh, Math.max(8, 34 * s), 43);
  const edgeNoise = valueNoise(ww, wh, Math.max(4, 9 * s), 53);
  const margin = Math.max(4, 10 * s);
  const density = new Float32Array(ww * wh);
  const cover = new Float32Array(ww * wh);
  for (let y = 0, i = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++, i++) {
      const edge = Math.max(0, Lb[i] - Lw[i]) * 3.5 + Math.max(0, Lw[i] - Lb[i]) * 0.6;
      density[i] = 0.5 * (granule[i] - 0.5) + 0.25 * (blotch[i] - 0.5) + edge;
      // unpainted paper margin with a ragged edge
      const dist = Math.min(x, y, ww - 1 - x, wh - 1 - y) + (edgeNoise[i] - 0.5) * margin * 1.4;
      cover[i] = smoothstep(0.2 * margin, 1.1 * margin, dist);
    }
  }
  const LwAbs = luma(work);
  const out = upTo(warped, w, h);
  const sc = scaleOf(w, h);
  const D = resizePlane(density, ww, wh, w, h);
  const C = resizePlane(cover, ww, wh, w, h);
  const grain = whiteNoise(w, h, 47);
  const pencil = dogInk(resizePlane(LwAbs, ww, wh, w, h), w, h, Math.max(0.6, 0.8 * sc), 0.012, 1.5);
  const { r, g, b } = out;
  for (let i = 0; i < w * h; i++) {
    const dm1 = (D[i] + 0.06 * (grain[i] - 0.5)) * 1.6;
    const cv = C[i];
    const pen = 1 - pencil[i] * 0.22;
    for (const p of [r, g, b]) {
      // diluted pigment (lighter than the photo), then density modification C - (C - C^2)(d - 1)
      let c = 1 - (1 - p[i]) * 0.82;
      c = c - (c - c * c) * dm1;
      c = 0.985 + (c - 0.985) * cv;
      p[i] = c * pen;
    }
  }
  return tone(out, 1, 1.04, 0.7, 0);
}
