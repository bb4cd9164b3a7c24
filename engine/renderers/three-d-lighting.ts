import { gaussBlur } from '../filters/blur';
import { pixelMath } from '../pixel-math';
import { createRaster, luma, type Raster } from '../raster';
import type { PeopleFields } from './three-d-face';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/**
 * 3d lighting: pseudo-normals from a multi-scale height field of the smoothed luminance, lit by a soft key light from
 * the top left (Blinn-Phong specular, a rim where the surface turns away, soft ambient occlusion). With people, toon
 * shading on the subject (two soft bands, warm key and cool fill), and eyes, brows and lips left unlit. Returns the
 * lit raster (`work` is read only).
 */
export function relight(work: Raster, s: number, people: PeopleFields | undefined): Raster {
  const ww = work.width;
  const wh = work.height;
  const n = ww * wh;
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
      let shade = 0.74 + 0.38 * (diff / lz); // ~1.1 on flat areas, brighter facing light
      let kr = 1;
      let kb = 1;
      if (people) {
        // toon shading on the subject: two soft bands (warm key / cool fill) instead of a photo's gradients
        const m = people.person[i];
        const band = smoothstep(0.82, 1.06, diff / lz);
        const toon = 0.88 + 0.2 * band;
        shade += (toon - shade) * m * 0.6;
        kr = 1 + m * (0.03 * band - 0.01 * (1 - band));
        kb = 1 + m * (-0.03 * band + 0.03 * (1 - band));
      }
      const ndh = Math.max(0, nx * hx + ny * hy + nz * hz);
      const bright = smoothstep(0.25, 0.8, L[i]);
      const n2 = ndh * ndh;
      const n4 = n2 * n2;
      const n8 = n4 * n4;
      const n32 = n8 * n8 * n8 * n8;
      let spec = n32 * n8 * 0.3 * (0.35 + 0.65 * bright); // ndh^40
      const t = 1 - nz;
      let rim = t * Math.sqrt(t) * 0.5 * smoothstep(-0.2, 0.4, -(nx * lx + ny * ly));
      // soft ambient occlusion: darker than the large-scale surroundings -> cavity
      const ao = 1 - Math.min(0.25, Math.max(0, big[i] - L[i]) * 0.9);
      if (people) {
        // eyes, brows and lips keep their own colour: no glints or rims from their dark edges
        const fk = 1 - people.features[i];
        shade = 1 + (shade - 1) * fk;
        spec *= fk;
        rim *= fk;
      }
      const k = shade * ao;
      lit.r[i] = work.r[i] * k * kr + spec + rim * 0.55;
      lit.g[i] = work.g[i] * k + spec + rim * 0.42;
      lit.b[i] = work.b[i] * k * kb + spec * 0.95 + rim * 0.3;
    }
  }
  return lit;
}
