import { gaussBlur } from '../filters/blur';
import { saturate, tint, tone } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { GuidedUpsampler } from '../filters/guided-upsample';
import { cloneRaster, createRaster, type Image8, luma, rowsToRGB8, upsampleToRGB8 } from '../raster';
import { toWork } from './common';
import { pixelMath } from '../pixel-math';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/**
 * "3D animation" look (best honest approximation without a generative model):
 *  1. strong edge-preserving smoothing -> clean plastic/skin surfaces,
 *  2. relighting from a pseudo-normal map derived from multi-scale smoothed luminance
 *     (soft key light from the top left, Blinn-Phong specular, warm rim light, soft ambient occlusion),
 *  3. warm, saturated grade,
 *  4. depth of field: background blurred by a saliency x centre-weighted subject mask,
 *  5. enlarged outputs: guided upsampling brings the photo's edges back at full sharpness in focus.
 */
export function threeD(img: Image8): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const ww = work.width;
  const wh = work.height;
  const n = ww * wh;
  const guide = luma(work); // the photo's own luma at work size, for the guided upsampling at the end
  // 1. smoothing: wide then narrow domain transform -> smooth gradients, crisp silhouettes.
  domainTransform(work, 40 * s, 0.3, 3);
  domainTransform(work, 14 * s, 0.14, 3);
  // 3. grade (before lighting so highlights stay clean)
  tone(work, 0.88, 1.05, 0.5, 0.03);
  saturate(work, 1.3);
  tint(work, 1.05, 1.0, 0.93);
  // 2. pseudo-normals from smoothed luminance (multi-scale height field).
  const L = luma(work);
  const h1 = gaussBlur(L, ww, wh, 3 * s);
  const h2 = gaussBlur(L, ww, wh, 10 * s);
  const hf = new Float32Array(n);
  for (let i = 0; i < n; i++) hf[i] = 0.6 * h1[i] + 0.4 * h2[i];
  const big = gaussBlur(L, ww, wh, 24 * s);
  const depthK = 20 * s; // slope gain: height units -> normal tilt
  // light from top-left-front, view along +z
  let lx = -0.45;
  let ly = -0.6;
  let lz = 0.66;
  const ll = Math.hypot(lx, ly, lz);
  lx /= ll;
  ly /= ll;
  lz /= ll;
  let hx = lx;
  let hy = ly;
  let hz = lz + 1;
  const hl = Math.hypot(hx, hy, hz);
  hx /= hl;
  hy /= hl;
  hz /= hl;
  const lit = createRaster(ww, wh);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const gx = (hf[y * ww + Math.min(ww - 1, x + 1)] - hf[y * ww + Math.max(0, x - 1)]) * 0.5;
      const gy = (hf[Math.min(wh - 1, y + 1) * ww + x] - hf[Math.max(0, y - 1) * ww + x]) * 0.5;
      let nx = -gx * depthK;
      let ny = -gy * depthK;
      let nz = 1;
      const nl = Math.sqrt(nx * nx + ny * ny + 1);
      nx /= nl;
      ny /= nl;
      nz /= nl;
      const diff = nx * lx + ny * ly + nz * lz;
      const shade = 0.74 + 0.38 * (diff / lz); // ~1.1 on flat areas, brighter facing light
      const ndh = Math.max(0, nx * hx + ny * hy + nz * hz);
      const bright = smoothstep(0.25, 0.8, L[i]);
      const n2 = ndh * ndh;
      const n4 = n2 * n2;
      const n8 = n4 * n4;
      const n32 = n8 * n8 * n8 * n8;
      const spec = n32 * n8 * 0.3 * (0.35 + 0.65 * bright); // ndh^40
      const t = 1 - nz;
      const rim = t * Math.sqrt(t) * 0.5 * smoothstep(-0.2, 0.4, -(nx * lx + ny * ly));
      // soft ambient occlusion: darker than the large-scale surroundings -> cavity
      const ao = 1 - Math.min(0.25, Math.max(0, big[i] - L[i]) * 0.9);
      const k = shade * ao;
      lit.r[i] = work.r[i] * k + spec + rim * 0.55;
      lit.g[i] = work.g[i] * k + spec + rim * 0.42;
      lit.b[i] = work.b[i] * k + spec * 0.95 + rim * 0.3;
    }
  }
  // 4. depth of field: saliency (distance of smoothed colour from the image mean) x centre prior.
  let mr = 0;
  let mg = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    mr += work.r[i];
    mg += work.g[i];
    mb += work.b[i];
  }
  mr /= n;
  mg /= n;
  mb /= n;
  const sal = new Float32Array(n);
  let smax = 1e-6;
  for (let i = 0; i < n; i++) {
    const dr = work.r[i] - mr;
    const dg = work.g[i] - mg;
    const db = work.b[i] - mb;
    const v = Math.sqrt(dr * dr + dg * dg + db * db);
    sal[i] = v;
    if (v > smax) smax = v;
  }
  const salB = gaussBlur(sal, ww, wh, 8 * s);
  const mask = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const dx = (x / ww - 0.5) / 0.36;
      const dy = (y / wh - 0.45) / 0.42;
      const centre = Math.exp(-(dx * dx + dy * dy) * 0.5);
      mask[i] = smoothstep(0.35, 0.75, 0.75 * centre + 0.45 * (salB[i] / smax));
    }
  }
  const maskB = gaussBlur(mask, ww, wh, 12 * s);
  const bg = cloneRaster(lit);
  const bs = 6 * s; // a film-like shallow focus: busy backgrounds (garages, towers) melt away
  bg.r = gaussBlur(bg.r, ww, wh, bs);
  bg.g = gaussBlur(bg.g, ww, wh, bs);
  bg.b = gaussBlur(bg.b, ww, wh, bs);
  for (let i = 0; i < n; i++) {
    const m = maskB[i];
    // background also slightly hazier/brighter, as in a shallow-focus film frame
    lit.r[i] = lit.r[i] * m + (bg.r[i] * 0.94 + 0.06 * 0.95) * (1 - m);
    lit.g[i] = lit.g[i] * m + (bg.g[i] * 0.94 + 0.06 * 0.9) * (1 - m);
    lit.b[i] = lit.b[i] * m + (bg.b[i] * 0.94 + 0.06 * 0.85) * (1 - m);
  }
  if (w <= ww * 1.2) return upsampleToRGB8(lit, w, h);
  // Enlarged outputs get the photo's own edges back where the subject is in focus (eyes, teeth, silhouettes
  // crisp instead of stair-stepped); the half-focus fringe (hair against a blurred backdrop) counts as in focus.
  const focus = maskB;
  for (let i = 0; i < n; i++) focus[i] = Math.min(1, 2 * focus[i]);
  const gu = new GuidedUpsampler(guide, lit, img, 1, 2e-4, focus);
  return rowsToRGB8(w, h, (y, r, g, b) => gu.row(y, r, g, b));
}
