import type { Scene } from '../analysis/scene';
import { gaussBlur } from '../filters/blur';
import { saturate, toneLut } from '../filters/color';
import { dogField } from '../filters/lines';
import { fbm, valueNoise } from '../filters/noise';
import { pixelMath } from '../pixel-math';
import { createRaster, type Image8, luma, rowBuffers, scaleOf, Upsampler } from '../raster';
import { abstractRegions, simplifyBackground, toWork } from './common';

// bound once at load (see pixel-math.ts)
const { byte, hash2, inkCoverage, smoothstep } = pixelMath;

/**
 * Watercolor: simplified washes with wobbly, bled edges, pigment darkening at wash borders,
 * paper granulation, a faint pencil under-drawing and an irregular unpainted paper margin.
 */
export function watercolor(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img, { smooth: true });
  abstractRegions(work, s, 1.1);
  // behind people: loose washes
  if (scene) simplifyBackground(work, s, scene);
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
      const { r, g, b } = work;
      const rt = r[i00] + (r[i01] - r[i00]) * ax;
      const rb = r[i10] + (r[i11] - r[i10]) * ax;
      warped.r[i] = rt + (rb - rt) * ay;
      const gt = g[i00] + (g[i01] - g[i00]) * ax;
      const gb = g[i10] + (g[i11] - g[i10]) * ax;
      warped.g[i] = gt + (gb - gt) * ay;
      const bt = b[i00] + (b[i01] - b[i00]) * ax;
      const bb = b[i10] + (b[i11] - b[i10]) * ax;
      warped.b[i] = bt + (bb - bt) * ay;
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
  const sc = scaleOf(w, h);
  const P = dogField(LwAbs, ww, wh, (Math.max(0.6, 0.8 * sc) * ww) / w);
  const lut = toneLut(1, 1.04, 0.7, 0);
  const up = new Upsampler(ww, wh, w, h);
  const out = Buffer.allocUnsafe(w * h * 3);
  const [rr, gg, bb, DD, CC, PP] = rowBuffers(w, 6);
  const px = [rr, gg, bb];
  for (let y = 0; y < h; y++) {
    up.row(warped.r, y, rr);
    up.row(warped.g, y, gg);
    up.row(warped.b, y, bb);
    up.row(density, y, DD);
    up.row(cover, y, CC);
    up.row(P, y, PP);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      const dm1 = (DD[x] + 0.06 * (hash2(x, y, 47) - 0.5)) * 1.6;
      const cv = CC[x];
      const pen = 1 - inkCoverage(PP[x], 0.012, 1.5) * 0.22;
      for (let k = 0; k < 3; k++) {
        // diluted pigment (lighter than the photo), then density modification C - (C - C^2)(d - 1)
        let c = 1 - (1 - px[k][x]) * 0.82;
        c = c - (c - c * c) * dm1;
        c = 0.985 + (c - 0.985) * cv;
        c *= pen;
        out[j + k] = byte(lut[((c < 0 ? 0 : c > 1 ? 1 : c) * 1024 + 0.5) | 0]);
      }
    }
  }
  return out;
}
