import { frameScale, type Scene } from '../analysis/scene';
import { domainTransform } from '../filters/edge-aware';
import { pixelMath } from '../pixel-math';
import { createRaster, type Raster } from '../raster';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/** Where the faces are at w x h, and how much of the photo each keeps (see keepFaces). */
export interface FaceFields {
  /** 1 on a face, fading to 0 from 0.9 to 1.5 of its mesh box's radii (an ellipse). */
  face: Float32Array;
  /** face x the share of the light smoothing the face takes back. */
  keep: Float32Array;
}

/**
 * Faces are treated less than the rest of the frame, and small faces least: each face takes back the lightly smoothed
 * photo by 0.3 when it fills the frame, rising to 1 for a face under 40 work pixels tall, where the clay smoothing
 * would leave a featureless oval. Soft ellipses around each face mesh's box: no line anywhere where the treatment
 * changes. `face` also keeps every face in focus, even one the person mask missed.
 */
export function faceFields(scene: Scene, ww: number, wh: number): FaceFields {
  const face = new Float32Array(ww * wh);
  const keep = new Float32Array(ww * wh);
  const k = frameScale(scene, ww);
  for (const f of scene.faces) {
    const [bx, by, bw, bh] = f.box;
    const amount = 0.3 + 0.7 * (1 - smoothstep(40, 160, bh * k));
    const cx = (bx + bw / 2) * k;
    const cy = (by + bh / 2) * k;
    const rx = (bw / 2) * k;
    const ry = (bh / 2) * k;
    const x0 = Math.max(0, Math.floor(cx - 1.5 * rx));
    const x1 = Math.min(ww - 1, Math.ceil(cx + 1.5 * rx));
    const y0 = Math.max(0, Math.floor(cy - 1.5 * ry));
    const y1 = Math.min(wh - 1, Math.ceil(cy + 1.5 * ry));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const a = 1 - smoothstep(0.9, 1.5, Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry));
        const i = y * ww + x;
        if (a > face[i]) face[i] = a;
        if (a * amount > keep[i]) keep[i] = a * amount;
      }
    }
  }
  return { face, keep };
}

/** The photo (work size, before any smoothing) over the box the faces' `keep` weights cover, and that box. */
export interface FaceCrop {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  light: Raster;
}

/**
 * The crop of `photoWork` that keepFaces takes back: taken before the smoothing runs in place on the same raster,
 * so no full copy of the photo is kept. Undefined when no pixel keeps any.
 */
export function faceCrop(photoWork: Raster, fields: FaceFields): FaceCrop | undefined {
  const { keep } = fields;
  const ww = photoWork.width;
  let [x0, y0, x1, y1] = [ww, photoWork.height, -1, -1];
  for (let y = 0; y < photoWork.height; y++) {
    for (let x = 0, i = y * ww; x < ww; x++, i++) {
      if (keep[i] <= 0) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return undefined;
  const cw = x1 - x0 + 1;
  const light = createRaster(cw, y1 - y0 + 1);
  for (let y = y0; y <= y1; y++) {
    const o = (y - y0) * cw;
    light.r.set(photoWork.r.subarray(y * ww + x0, y * ww + x1 + 1), o);
    light.g.set(photoWork.g.subarray(y * ww + x0, y * ww + x1 + 1), o);
    light.b.set(photoWork.b.subarray(y * ww + x0, y * ww + x1 + 1), o);
  }
  return { x0, y0, x1, y1, light };
}

/**
 * `work` takes back the photo (`crop`, faceCrop's, the same work size) under a light smoothing (wrinkles' larger
 * folds, lids, lashes and the lips' line survive it) by the weight `keep`. The light smoothing runs only on the box
 * the faces' weights cover. In place (on `work`, and on the crop's pixels).
 */
export function keepFaces(work: Raster, crop: FaceCrop, fields: FaceFields, s: number): void {
  const { keep } = fields;
  const ww = work.width;
  const { x0, y0, x1, y1, light } = crop;
  const cw = x1 - x0 + 1;
  domainTransform(light, 5 * s, 0.06, 2);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0, j = (y - y0) * cw; x <= x1; x++, j++) {
      const i = y * ww + x;
      const a = keep[i];
      if (a <= 0) continue;
      work.r[i] += (light.r[j] - work.r[i]) * a;
      work.g[i] += (light.g[j] - work.g[i]) * a;
      work.b[i] += (light.b[j] - work.b[i]) * a;
    }
  }
}
