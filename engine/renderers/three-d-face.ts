import { browsAt, faceRegionsAt, personAt, type Scene, skinColour } from '../analysis/scene';
import type { Point } from '../analysis/types';
import { domainTransformHalf } from '../filters/edge-aware';
import { pixelMath } from '../pixel-math';
import { createRaster, type Raster } from '../raster';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/** What the 3d look knows of the people at work size: the person mask and the face features (eyes, brows, lips). */
export interface PeopleFields {
  person: Float32Array;
  features: Float32Array;
}

/**
 * Clay skin: inside the face oval (minus the features) and on skin-coloured parts of the person (neck, hands)
 * a much stronger smoothing; eyes, brows and lips keep the photo's detail. In place on `work`.
 */
export function sculpt(scene: Scene, work: Raster, photoWork: Raster, s: number): PeopleFields {
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
