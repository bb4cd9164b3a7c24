/**
 * A face from a detection: FaceMesh on the detector's box turned upright, the iris model on both eyes, and the
 * face-mesh box, all in the image's pixels (index.ts findFaces and findHeadFaces confirm detections with it).
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Image8 } from '../raster';
import { type Detection, eyeAngle } from './detect';
import { loadModel } from './models';
import { crop, run } from './sample';
import type { EyeInfo, FaceInfo, Point } from './types';

/** FaceMesh face-flag under which a detection is not a face after all. */
const MESH_MIN = 0.5;
/**
 * Detector score x mesh face-flag under which a detection is not a face: measured, a motorcycle's headlight in a
 * tile 0.74 x 0.59 = 0.44, the grey, turned-away face of camera.png 0.90 x 0.68 = 0.62, frontal faces 0.7-1.
 */
const FACE_MIN = 0.5;
/** FACE_MIN where MoveNet saw a head (findHeadFaces): the person is evidence of its own. */
export const HEAD_FACE_MIN = 0.3;

export interface FaceModels {
  detector: GraphModel;
  facemesh: GraphModel;
  iris: GraphModel;
}

export async function faceModels(): Promise<FaceModels> {
  const [detector, facemesh, iris] = await Promise.all(
    (['facemesh-detection-full', 'facemesh', 'iris'] as const).map(loadModel),
  );
  return { detector, facemesh, iris };
}

/** FaceMesh on a rotated square crop; the 468 landmarks in image pixels, or undefined if not a face. */
function mesh(
  models: FaceModels,
  img: Image8,
  cx: number,
  cy: number,
  size: number,
  angle: number,
): { score: number; pts: Point[] } | undefined {
  const { pixels, toImage } = crop(img, cx, cy, size, angle, 192);
  const outs = run(models.facemesh, pixels, 192);
  const flag = outs.find((o) => o.length === 1) as Float32Array;
  const raw = outs.find((o) => o.length === 1404) as Float32Array;
  const score = flag[0] > 1 || flag[0] < 0 ? 1 / (1 + Math.exp(-flag[0])) : flag[0];
  if (score < MESH_MIN) return undefined;
  const pts: Point[] = [];
  for (let i = 0; i < 468; i++) pts.push(toImage(raw[i * 3], raw[i * 3 + 1]));
  return { score, pts };
}

/** Mesh eye corner landmarks (outer, inner) and lid centres, for the eye on the image's left and right. */
interface EyeSpec {
  corners: readonly [number, number];
  /** The lids' mesh landmarks, as the iris model's first contour points give them: lower lid (corner to corner), then upper. */
  lids: readonly number[];
}
const EYE_LEFT: EyeSpec = {
  corners: [33, 133],
  lids: [33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173],
};
const EYE_RIGHT: EyeSpec = {
  corners: [263, 362],
  lids: [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398],
};

function dist(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/**
 * The iris model on both eyes' crops in one batch (the model sees image-right eyes mirrored): iris centres and
 * radii, and the lids refined in `pts` (the iris model's own eye contour, sharper than the mesh's), all in image
 * pixels.
 */
function eyes(models: FaceModels, img: Image8, pts: Point[], angle: number): [EyeInfo, EyeInfo] {
  const specs = [EYE_LEFT, EYE_RIGHT];
  const crops = specs.map((which, k) => {
    const a = pts[which.corners[0]];
    const b = pts[which.corners[1]];
    return crop(img, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, dist(a, b) * 2.3, angle, 64, k === 1);
  });
  const batch = new Float32Array(2 * 64 * 64 * 3);
  batch.set(crops[0].pixels, 0);
  batch.set(crops[1].pixels, 64 * 64 * 3);
  const out = run(models.iris, batch, 64, 64, 2)[0];
  const info = specs.map((which, k) => {
    const o = k * 76 * 3;
    const { toImage } = crops[k];
    // 71 eye-contour points, then the iris: centre and four points on its rim
    const iris: Point[] = [];
    for (let i = 71; i < 76; i++) iris.push(toImage(out[o + i * 3], out[o + i * 3 + 1]));
    const center = iris[0];
    let r = 0;
    for (let i = 1; i < 5; i++) r += dist(center, iris[i]) / 4;
    // contour points 0-8: lower lid from the outer to the inner corner; 9-15: upper lid
    which.lids.forEach((m, i) => {
      pts[m] = toImage(out[o + i * 3], out[o + i * 3 + 1]);
    });
    const corners: [Point, Point] = [pts[which.corners[0]], pts[which.corners[1]]];
    const width = dist(corners[0], corners[1]);
    const open = dist(pts[which.lids[12]], pts[which.lids[4]]) / Math.max(1e-6, width);
    return { center, corners, width, irisRadius: r, open };
  });
  return [info[0], info[1]];
}

export function faceInfo(models: FaceModels, img: Image8, d: Detection, min = FACE_MIN): FaceInfo | undefined {
  // the mesh on the detector's box, turned upright by the detector's eye line
  const angle = eyeAngle(d.kp[0], d.kp[1]);
  const m = mesh(models, img, d.cx, d.cy, d.size * 1.5, angle);
  if (!m || m.score * d.score < min) return undefined;
  const pts = m.pts;
  const [left, right] = eyes(models, img, pts, angle);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { score: m.score, box: [x0, y0, x1 - x0, y1 - y0], eyes: { left, right }, landmarks: pts };
}
