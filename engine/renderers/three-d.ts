import { browsAt, EYE_LOOPS, faceRegionsAt, personAt, type Scene, skinColour } from '../analysis/scene';
import type { Point } from '../analysis/types';
import { gaussBlur } from '../filters/blur';
import { saturate, tint, tone } from '../filters/color';
import { domainTransform, domainTransformHalf } from '../filters/edge-aware';
import { enlargeEyes, eyeWarps, warpScene } from '../filters/eye-warp';
import { GuidedUpsampler } from '../filters/guided-upsample';
import { pixelMath } from '../pixel-math';
import { cloneRaster, createRaster, type Image8, luma, type Raster, rgb8Out, upsampleToRGB8 } from '../raster';
import { toWork } from './common';

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
 * With people (`scene`), it becomes a still from an animated film: eyes enlarged by a fold-free warp from the
 * face landmarks with catchlights in the irises, skin as smooth clay inside the face and skin mask while eyes,
 * brows and lips stay crisp, soft toon shading from a warm key light, and the person mask (not a saliency
 * guess) for the depth of field and a rim light along the silhouette.
 */
export function threeD(photo: Image8, found?: Scene): Buffer {
  const warps = found ? eyeWarps(found, photo.width, EYE_ENLARGE) : [];
  const img = found ? enlargeEyes(photo, warps) : photo;
  // from here on the face as the warp left it: bigger eyes, brows pushed aside
  const scene = found && warpScene(found, warps, photo.width);
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const ww = work.width;
  const wh = work.height;
  const n = ww * wh;
  const guide = luma(work); // the photo's own luma at work size, for the guided upsampling at the end
  const photoWork = scene ? cloneRaster(work) : undefined;
  // 1. smoothing: wide then narrow domain transform -> smooth gradients, crisp silhouettes.
  domainTransform(work, 40 * s, 0.3, 3);
  domainTransform(work, 14 * s, 0.14, 2);
  const people = scene && photoWork ? sculpt(scene, work, photoWork, s) : undefined;
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
  // 4. depth of field: the person mask, else saliency (distance of smoothed colour from the image mean) x centre prior.
  const bs = 6 * s; // a film-like shallow focus: busy backgrounds (garages, towers) melt away
  const maskB = people
    ? personFocus(people.person, lit, ww, wh, s, bs)
    : blurBehind(lit, saliencyFocus(work, ww, wh, s), bs);
  let out: Buffer;
  if (w <= ww * 1.2) out = upsampleToRGB8(lit, w, h);
  else {
    // Enlarged outputs get the photo's own edges back where the subject is in focus (eyes, teeth, silhouettes
    // crisp instead of stair-stepped); the half-focus fringe (hair against a blurred backdrop) counts as in focus.
    const focus = maskB;
    for (let i = 0; i < n; i++) focus[i] = Math.min(1, 2 * focus[i]);
    const gu = new GuidedUpsampler(guide, lit, img, 1, 2e-4, focus);
    const bytes = rgb8Out(w, h);
    for (let y = 0; y < h; y++) gu.rowRGB8(y, bytes.oc);
    out = bytes.out;
  }
  if (scene) paintEyes(out, w, h, scene);
  return out;
}

/** Enlargement of the eyes at their centre (the corners move out by about half of it). */
const EYE_ENLARGE = 0.34;

/**
 * The backdrop of a shallow-focus film frame is a little hazier and brighter: 94 % of itself plus 6 % of a warm haze
 * (HAZE_ADD, per channel; the 6 % written apart because 1 - 0.94 is not 0.06 in floating point).
 */
const HAZE_KEEP = 0.94;
const HAZE_ADD = [0.06 * 0.95, 0.06 * 0.9, 0.06 * 0.85];

/**
 * Depth of field without people: the whole frame blurred, blended in where the subject weight `mask` is low (in
 * `lit`, in place). Returns the mask.
 */
function blurBehind(lit: Raster, mask: Float32Array, bs: number): Float32Array {
  const { width: ww, height: wh } = lit;
  const br = gaussBlur(lit.r, ww, wh, bs);
  const bg = gaussBlur(lit.g, ww, wh, bs);
  const bb = gaussBlur(lit.b, ww, wh, bs);
  const [hr, hg, hb] = HAZE_ADD;
  for (let i = 0; i < ww * wh; i++) {
    const m = mask[i];
    lit.r[i] = lit.r[i] * m + (br[i] * HAZE_KEEP + hr) * (1 - m);
    lit.g[i] = lit.g[i] * m + (bg[i] * HAZE_KEEP + hg) * (1 - m);
    lit.b[i] = lit.b[i] * m + (bb[i] * HAZE_KEEP + hb) * (1 - m);
  }
  return mask;
}

/** Saliency x centre prior -> subject weight (photos without people). */
function saliencyFocus(work: Raster, ww: number, wh: number, s: number): Float32Array {
  const n = ww * wh;
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
  return gaussBlur(mask, ww, wh, 12 * s);
}

/**
 * Depth of field and rim light from the person mask, in `lit` (in place); returns the focus weight. The backdrop is
 * blurred from backdrop pixels only (each blurred colour divided by the blurred backdrop weight): a plain blur of
 * the whole frame smears the subject's colours outward, a dark halo around a dark helmet, a bright one around hair.
 * The rim light comes after the blur, a thin warm band just inside the silhouette, strongest on the side away from
 * the key light (top left).
 */
export function personFocus(
  person: Float32Array,
  lit: Raster,
  ww: number,
  wh: number,
  s: number,
  bs: number,
): Float32Array {
  const n = ww * wh;
  const focus = gaussBlur(person, ww, wh, Math.max(0.8, 1.5 * s));
  const back = new Float32Array(n);
  for (let i = 0; i < n; i++) back[i] = 1 - person[i];
  const weight = gaussBlur(back, ww, wh, bs);
  const { r, g, b } = lit;
  const pr = new Float32Array(n);
  const pg = new Float32Array(n);
  const pb = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    pr[i] = r[i] * back[i];
    pg[i] = g[i] * back[i];
    pb[i] = b[i] * back[i];
  }
  const br = gaussBlur(pr, ww, wh, bs);
  const bg = gaussBlur(pg, ww, wh, bs);
  const bb = gaussBlur(pb, ww, wh, bs);
  const [hr, hg, hb] = HAZE_ADD;
  for (let i = 0; i < n; i++) {
    const m = focus[i];
    const k = 1 - m;
    const wgt = weight[i];
    // inside a large subject no backdrop is near: the pixel itself stands in (it is hidden by m there)
    const near = wgt > 0.02;
    r[i] = r[i] * m + ((near ? br[i] / wgt : r[i]) * HAZE_KEEP + hr) * k;
    g[i] = g[i] * m + ((near ? bg[i] / wgt : g[i]) * HAZE_KEEP + hg) * k;
    b[i] = b[i] * m + ((near ? bb[i] / wgt : b[i]) * HAZE_KEEP + hb) * k;
  }
  const soft = gaussBlur(person, ww, wh, Math.max(0.8, 2.5 * s));
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const band = Math.max(0, person[i] - soft[i]) * 3.2 * person[i];
      if (band <= 0) continue;
      // the mask's outward normal, from its smoothed gradient
      const gx = soft[y * ww + Math.min(ww - 1, x + 1)] - soft[y * ww + Math.max(0, x - 1)];
      const gy = soft[Math.min(wh - 1, y + 1) * ww + x] - soft[Math.max(0, y - 1) * ww + x];
      const gl = Math.hypot(gx, gy) || 1;
      const away = 0.55 + 0.45 * ((-gx * 0.6 + gy * 0.4) / gl) * -1; // outward normal pointing right/down -> away from key
      const a = Math.min(0.55, band) * Math.max(0.2, away);
      lit.r[i] += (1.0 - lit.r[i]) * a;
      lit.g[i] += (0.92 - lit.g[i]) * a;
      lit.b[i] += (0.8 - lit.b[i]) * a;
    }
  }
  return focus;
}

interface PeopleFields {
  person: Float32Array;
  features: Float32Array;
}

/**
 * Clay skin: inside the face oval (minus the features) and on skin-coloured parts of the person (neck, hands)
 * a much stronger smoothing; eyes, brows and lips keep the photo's detail. In place on `work`.
 */
function sculpt(scene: Scene, work: Raster, photoWork: Raster, s: number): PeopleFields {
  const ww = work.width;
  const wh = work.height;
  const n = ww * wh;
  const person = personAt(scene, ww, wh);
  const { skin, features } = faceRegionsAt(scene, ww, wh, Math.max(0.7, 1.6 * s));
  // the face's own skin colour, to find skin elsewhere on the person
  const sc = skinColour(work, skin);
  const clayW = new Float32Array(n);
  if (sc) {
    const [sr, sg, sb] = sc;
    for (let i = 0; i < n; i++) {
      const dr = work.r[i] - sr;
      const dg = work.g[i] - sg;
      const db = work.b[i] - sb;
      const like = Math.exp(-(dr * dr + dg * dg + db * db) / 0.012) * person[i];
      clayW[i] = Math.max(skin[i], like * (1 - features[i]));
    }
  }
  // wide but edge-stopping: wrinkles and pores go, glasses, nostrils and the jaw line stay. Only the box around the
  // skin (plus a margin) is smoothed: outside it the clay weight is zero.
  let bx0 = ww;
  let by0 = wh;
  let bx1 = -1;
  let by1 = -1;
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      if (clayW[y * ww + x] <= 0.004 && features[y * ww + x] <= 0.004) continue;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
    }
  }
  if (bx1 < 0) return { person, features };
  const margin = Math.ceil(12 * s);
  bx0 = Math.max(0, bx0 - margin);
  by0 = Math.max(0, by0 - margin);
  bx1 = Math.min(ww - 1, bx1 + margin);
  by1 = Math.min(wh - 1, by1 + margin);
  const cw = bx1 - bx0 + 1;
  const box = createRaster(cw, by1 - by0 + 1);
  for (let y = by0; y <= by1; y++) {
    const o = (y - by0) * cw;
    box.r.set(work.r.subarray(y * ww + bx0, y * ww + bx1 + 1), o);
    box.g.set(work.g.subarray(y * ww + bx0, y * ww + bx1 + 1), o);
    box.b.set(work.b.subarray(y * ww + bx0, y * ww + bx1 + 1), o);
  }
  const clay = domainTransformHalf(box, 36 * s, 0.4, 3);
  for (let y = by0; y <= by1; y++) {
    for (let x = bx0; x <= bx1; x++) {
      const i = y * ww + x;
      const j = (y - by0) * cw + (x - bx0);
      const c = clayW[i];
      const f = features[i] * 0.65;
      let r = work.r[i] + (clay.r[j] - work.r[i]) * c + (photoWork.r[i] - work.r[i]) * f;
      let g = work.g[i] + (clay.g[j] - work.g[i]) * c + (photoWork.g[i] - work.g[i]) * f;
      let b = work.b[i] + (clay.b[j] - work.b[i]) * c + (photoWork.b[i] - work.b[i]) * f;
      // animated-film skin is warm and a touch deeper than a photo's (light scattered under the skin): the
      // key light and the grade that follow brighten it, and a desaturated clay read as a pale mask; but the
      // grade's saturation boost, whole, turns every complexion orange, so the skin takes part of it back here
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      const keep = 1 - 0.2 * c;
      r = (l + (r - l) * keep) * (1 - 0.01 * c);
      g = (l + (g - l) * keep) * (1 - 0.035 * c);
      b = (l + (b - l) * keep) * (1 - 0.06 * c);
      work.r[i] = r;
      work.g[i] = g;
      work.b[i] = b;
    }
  }
  drawBrows(scene, work, photoWork, s);
  headVolume(scene, work, skin);
  modelFace(scene, work, skin);
  return { person, features };
}

/**
 * Animated-film brows are drawn shapes a shade deeper than the hair, where a photo's fair brows are a faint texture
 * that the clay and the key light around them would turn into pale bands: each brow filled with the photo's own brow
 * colour, deepened. In place.
 */
function drawBrows(scene: Scene, work: Raster, photoWork: Raster, s: number): void {
  const found = browsAt(scene, work.width, work.height, Math.max(0.6, 0.9 * s));
  if (!found) return;
  const { brows, box } = found;
  const [x0, y0, x1, y1] = box;
  const ww = work.width;
  let sr = 0;
  let sg = 0;
  let sb = 0;
  let sw = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0, i = y * ww + x0; x <= x1; x++, i++) {
      const a = brows[i];
      if (a < 0.5) continue;
      sr += photoWork.r[i] * a;
      sg += photoWork.g[i] * a;
      sb += photoWork.b[i] * a;
      sw += a;
    }
  }
  if (sw === 0) return;
  const deepen = 0.62;
  const [br, bg, bb] = [(sr / sw) * deepen, (sg / sw) * deepen, (sb / sw) * deepen * 0.92];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0, i = y * ww + x0; x <= x1; x++, i++) {
      const a = Math.min(1, brows[i] * 1.25) * 0.85;
      if (a <= 0) continue;
      work.r[i] += (br - work.r[i]) * a;
      work.g[i] += (bg - work.g[i]) * a;
      work.b[i] += (bb - work.b[i]) * a;
    }
  }
}

/**
 * A head is round: clay shading of each face as an ellipsoid lit by the warm key light from the top left
 * (lighter toward the light, falling off toward the jaw and the far cheek), inside the face's skin. In place.
 */
function headVolume(scene: Scene, work: Raster, skin: Float32Array): void {
  const ww = work.width;
  const k = ww / scene.width;
  const [lx, ly, lz] = [-0.45 / 1.0, -0.6 / 1.0, 0.66 / 1.0].map((v) => v / Math.hypot(0.45, 0.6, 0.66));
  for (const f of scene.faces) {
    const [bx, by, bw, bh] = f.box;
    const cx = (bx + bw / 2) * k;
    const cy = (by + bh * 0.45) * k;
    const rx = bw * 0.62 * k;
    const ry = bh * 0.62 * k;
    const x0 = Math.max(0, Math.floor(cx - rx));
    const x1 = Math.min(ww - 1, Math.ceil(cx + rx));
    const y0 = Math.max(0, Math.floor(cy - ry));
    const y1 = Math.min(work.height - 1, Math.ceil(cy + ry));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const i = y * ww + x;
        if (skin[i] <= 0) continue;
        const nx = (x + 0.5 - cx) / rx;
        const ny = (y + 0.5 - cy) / ry;
        const r2 = nx * nx + ny * ny;
        if (r2 >= 1) continue;
        const nz = Math.sqrt(1 - r2);
        const lambert = Math.max(0, nx * lx + ny * ly + nz * lz);
        // shadows stay warm (light scattered under the skin): red falls least, blue most
        const f = (0.82 + 0.28 * lambert - 1) * skin[i];
        work.r[i] *= 1 + 0.6 * f;
        work.g[i] *= 1 + f;
        work.b[i] *= 1 + 1.25 * f;
      }
    }
  }
}

/**
 * Clay faces are sculpted, not flat: the smoothing takes the nose's and cheeks' photo shading away, so they are
 * modelled back from the landmarks under the same key light (top left): a soft shadow under the nose and along its
 * side away from the light, a highlight down its lit side, and warm cheeks. Soft elliptical blobs, inside the skin
 * only, sized by the face (the nostril wings' span). In place.
 */
function modelFace(scene: Scene, work: Raster, skin: Float32Array): void {
  const k = work.width / scene.width;
  for (const f of scene.faces) {
    const at = (i: number): Point => [f.landmarks[i][0] * k, f.landmarks[i][1] * k];
    const [wl, wr, tip, base, bridge] = [at(98), at(327), at(4), at(2), at(168)];
    const span = Math.hypot(wr[0] - wl[0], wr[1] - wl[1]);
    if (span < 3) continue; // a face this small has no nose to model
    // the face's own axes: along the nostril wings (x) and down the nose (y)
    const ux = (wr[0] - wl[0]) / span;
    const uy = (wr[1] - wl[1]) / span;
    const down: Point = [-uy, ux];
    const noseLen = Math.hypot(base[0] - bridge[0], base[1] - bridge[1]);
    // [centre, half-length across, half-length down, colour gain r g b]
    const blobs: [Point, number, number, [number, number, number]][] = [
      // under the nose: its cast shadow on the upper lip
      [[base[0] + down[0] * 0.18 * span, base[1] + down[1] * 0.18 * span], 0.55 * span, 0.2 * span, [0.86, 0.8, 0.8]],
      // the side away from the light
      [
        [(tip[0] + bridge[0]) / 2 + ux * 0.28 * span, (tip[1] + bridge[1]) / 2 + uy * 0.28 * span],
        0.2 * span,
        0.45 * noseLen,
        [0.92, 0.89, 0.89],
      ],
      // the lit ridge
      [
        [(tip[0] + bridge[0]) / 2 - ux * 0.1 * span, (tip[1] + bridge[1]) / 2 - uy * 0.1 * span],
        0.1 * span,
        0.42 * noseLen,
        [1.08, 1.07, 1.06],
      ],
      // warm cheeks
      [at(205), 0.55 * span, 0.45 * span, [1.04, 0.97, 0.97]],
      [at(425), 0.55 * span, 0.45 * span, [1.04, 0.97, 0.97]],
    ];
    for (const [[cx, cy], ra, rb, gain] of blobs) {
      const r = Math.max(ra, rb);
      const x0 = Math.max(0, Math.floor(cx - r));
      const x1 = Math.min(work.width - 1, Math.ceil(cx + r));
      const y0 = Math.max(0, Math.floor(cy - r));
      const y1 = Math.min(work.height - 1, Math.ceil(cy + r));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const i = y * work.width + x;
          if (skin[i] <= 0) continue;
          const dx = x + 0.5 - cx;
          const dy = y + 0.5 - cy;
          const a = (dx * ux + dy * uy) / ra;
          const b = (dx * down[0] + dy * down[1]) / rb;
          const t = (1 - smoothstep(0.2, 1, Math.sqrt(a * a + b * b))) * skin[i];
          if (t <= 0) continue;
          work.r[i] *= 1 + (gain[0] - 1) * t;
          work.g[i] *= 1 + (gain[1] - 1) * t;
          work.b[i] *= 1 + (gain[2] - 1) * t;
        }
      }
    }
  }
}

/** Even-odd point-in-polygon. */
function inside(poly: Point[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/**
 * Film eyes on the final RGB8 (in place; `scene` as warped): a darker limbal ring and pupil, a crisp catchlight up and left (toward
 * the key light) and a small second one down and right, all clipped to the eye's (warped) opening.
 */
function paintEyes(out: Buffer, w: number, h: number, scene: Scene): void {
  const k = w / scene.width;
  for (const f of scene.faces) {
    const eyes = [f.eyes.left, f.eyes.right];
    for (let e = 0; e < 2; e++) {
      const eye = eyes[e];
      if (eye.open < 0.16) continue; // closed or squinting: nothing to light
      const poly = EYE_LOOPS[e].map((i): Point => [f.landmarks[i][0] * k, f.landmarks[i][1] * k]);
      const cx = eye.center[0] * k;
      const cy = eye.center[1] * k;
      const R = eye.irisRadius * k * (1 + EYE_ENLARGE);
      if (R < 1.2) continue;
      const c1x = cx - 0.38 * R;
      const c1y = cy - 0.42 * R;
      const r1 = Math.max(0.7, 0.28 * R);
      const c2x = cx + 0.4 * R;
      const c2y = cy + 0.32 * R;
      const r2 = Math.max(0.5, 0.12 * R);
      const x0 = Math.max(0, Math.floor(cx - R - 2));
      const x1 = Math.min(w - 1, Math.ceil(cx + R + 2));
      const y0 = Math.max(0, Math.floor(cy - R - 2));
      const y1 = Math.min(h - 1, Math.ceil(cy + R + 2));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5;
          const py = y + 0.5;
          if (!inside(poly, px, py)) continue;
          const d = Math.hypot(px - cx, py - cy) / R;
          // limbal ring and pupil: darker, never a hard edge
          const ring = smoothstep(0.7, 0.95, d) * (1 - smoothstep(1.0, 1.2, d));
          const pupil = 1 - smoothstep(0.3, 0.45, d);
          const dark = 1 - 0.35 * ring - 0.45 * pupil;
          const l1 = 1 - smoothstep(r1 - 0.7, r1 + 0.7, Math.hypot(px - c1x, py - c1y));
          const l2 = (1 - smoothstep(r2 - 0.6, r2 + 0.6, Math.hypot(px - c2x, py - c2y))) * 0.7;
          const light = Math.max(l1 * 0.95, l2);
          const j = (y * w + x) * 3;
          for (let c = 0; c < 3; c++) {
            const v = out[j + c] * dark;
            out[j + c] = Math.round(v + (255 - v) * light);
          }
        }
      }
    }
  }
}
