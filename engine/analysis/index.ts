/**
 * One analysis per photo, shared by every style: the person mask (MediaPipe Selfie Segmentation) and faces
 * with landmarks and irises (BlazeFace -> FaceMesh -> Iris), at a small working size (ANALYSIS_LONG px long
 * side), on tfjs-wasm. Deterministic: the same pixels give the same analysis (single-threaded wasm, and the
 * crops are sampled here in plain JS).
 */
import type { Image8 } from '../raster';
import { loadModels, type Models, tf } from './models';
import { type Analysis, type EyeInfo, type FaceInfo, type Point, roundAnalysis } from './types';

export * from './types';

/** Long side of the image the analysis runs on (the preview size, so a preview batch shares its decode). */
export const ANALYSIS_LONG = 256;
/** BlazeFace score under which a detection is dropped. */
const DETECT_MIN = 0.6;
/** FaceMesh face-flag under which a detection is not a face after all. */
const MESH_MIN = 0.5;
const MAX_FACES = 4;
/** Detector input size. */
const DETECT_N = 128;

/** The photo at ANALYSIS_LONG px (area average), or the photo itself when it is that small already. */
export function analysisImage(img: Image8): Image8 {
  const long = Math.max(img.width, img.height);
  if (long <= ANALYSIS_LONG) return img;
  const f = ANALYSIS_LONG / long;
  const w = Math.max(1, Math.round(img.width * f));
  const h = Math.max(1, Math.round(img.height * f));
  const acc = new Float64Array(w * h * 3);
  const cnt = new Float64Array(w * h);
  const xmap = new Int32Array(img.width);
  for (let x = 0; x < img.width; x++) xmap[x] = Math.min(w - 1, Math.floor((x * w) / img.width));
  for (let y = 0; y < img.height; y++) {
    const row = Math.min(h - 1, Math.floor((y * h) / img.height)) * w;
    for (let x = 0, j = y * img.width * 3; x < img.width; x++, j += 3) {
      const o = row + xmap[x];
      acc[o * 3] += img.data[j];
      acc[o * 3 + 1] += img.data[j + 1];
      acc[o * 3 + 2] += img.data[j + 2];
      cnt[o]++;
    }
  }
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) for (let k = 0; k < 3; k++) data[i * 3 + k] = Math.round(acc[i * 3 + k] / cnt[i]);
  return { data, width: w, height: h };
}

/**
 * A square crop of `img` centred at (cx, cy), `size` px wide, rotated by `angle` (radians; the crop's x axis
 * runs along that direction), sampled bilinearly to n x n floats in [0, 1] (outside the image: black).
 * `flip` mirrors it horizontally. Returns the pixels and the crop -> image mapping.
 */
function crop(img: Image8, cx: number, cy: number, size: number, angle: number, n: number, flip = false) {
  const out = new Float32Array(n * n * 3);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const k = size / n;
  const toImage = (u: number, v: number): Point => {
    const du = ((flip ? n - u : u) - n / 2) * k;
    const dv = (v - n / 2) * k;
    return [cx + du * c - dv * s, cy + du * s + dv * c];
  };
  const { data, width: w, height: h } = img;
  for (let v = 0; v < n; v++) {
    const dv = (v + 0.5 - n / 2) * k;
    for (let u = 0; u < n; u++) {
      // toImage(u + 0.5, v + 0.5), inlined: no array per sample
      const du = ((flip ? n - (u + 0.5) : u + 0.5) - n / 2) * k;
      const x = cx + du * c - dv * s;
      const y = cy + du * s + dv * c;
      const fx = x - 0.5;
      const fy = y - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const ax = fx - x0;
      const ay = fy - y0;
      const o = (v * n + u) * 3;
      for (let dy = 0; dy <= 1; dy++) {
        const yy = y0 + dy;
        if (yy < 0 || yy >= h) continue;
        const wy = dy ? ay : 1 - ay;
        for (let dx = 0; dx <= 1; dx++) {
          const xx = x0 + dx;
          if (xx < 0 || xx >= w) continue;
          const wgt = wy * (dx ? ax : 1 - ax);
          const j = (yy * w + xx) * 3;
          out[o] += data[j] * wgt;
          out[o + 1] += data[j + 1] * wgt;
          out[o + 2] += data[j + 2] * wgt;
        }
      }
      out[o] /= 255;
      out[o + 1] /= 255;
      out[o + 2] /= 255;
    }
  }
  return { pixels: out, toImage };
}

/** Runs a single-input graph model on n x n x 3 pixels; returns each output's values. */
function run(model: Models[keyof Models], pixels: Float32Array, n: number, m = n, batch = 1): Float32Array[] {
  return tf
    .tidy(() => {
      const input = tf.tensor4d(pixels, [batch, m, n, 3]);
      const res = model.execute(input);
      const list = Array.isArray(res) ? res : [res];
      return list.map((t) => t.dataSync() as Float32Array);
    })
    .map((a) => a.slice());
}

interface Detection {
  score: number;
  cx: number;
  cy: number;
  size: number;
  /** BlazeFace keypoints: eyes (0, 1), nose, mouth, ears. */
  kp: Point[];
}

let anchors: Point[] | undefined;
/** BlazeFace (short range, 128 px) anchors: 16x16 cells x 2, then 8x8 cells x 6. */
function blazeAnchors(): Point[] {
  if (anchors) return anchors;
  anchors = [];
  for (const [stride, count] of [
    [8, 2],
    [16, 6],
  ]) {
    const cells = DETECT_N / stride;
    for (let y = 0; y < cells; y++)
      for (let x = 0; x < cells; x++)
        for (let k = 0; k < count; k++) anchors.push([stride * (x + 0.5), stride * (y + 0.5)]);
  }
  return anchors;
}

function detectFaces(models: Models, img: Image8): Detection[] {
  const side = Math.max(img.width, img.height);
  // the photo letterboxed into a square, as the detector was trained
  const { pixels } = crop(img, img.width / 2, img.height / 2, side, 0, DETECT_N);
  for (let i = 0; i < pixels.length; i++) pixels[i] = pixels[i] * 2 - 1;
  const outs = run(models.detector, pixels, DETECT_N);
  // outputs (converted model): scores 512 + 384, regressors 512 x 16 + 384 x 16, in some order
  const by = (len: number) => outs.find((o) => o.length === len) as Float32Array;
  const s512 = by(512);
  const s384 = by(384);
  const r512 = by(512 * 16);
  const r384 = by(384 * 16);
  const a = blazeAnchors();
  const k = side / DETECT_N;
  const found: Detection[] = [];
  for (let i = 0; i < 896; i++) {
    const logit = i < 512 ? s512[i] : s384[i - 512];
    const score = 1 / (1 + Math.exp(-logit));
    if (score < DETECT_MIN) continue;
    const r = i < 512 ? r512.subarray(i * 16, i * 16 + 16) : r384.subarray((i - 512) * 16, (i - 512) * 16 + 16);
    const [ax, ay] = a[i];
    const map = (x: number, y: number): Point => [
      (x + ax - DETECT_N / 2) * k + img.width / 2,
      (y + ay - DETECT_N / 2) * k + img.height / 2,
    ];
    const [cx, cy] = map(r[0], r[1]);
    const kp: Point[] = [];
    for (let j = 0; j < 6; j++) kp.push(map(r[4 + 2 * j], r[5 + 2 * j]));
    found.push({ score, cx, cy, size: Math.max(r[2], r[3]) * k, kp });
  }
  // greedy non-maximum suppression
  found.sort((p, q) => q.score - p.score);
  const kept: Detection[] = [];
  for (const d of found) {
    if (kept.some((e) => iou(d, e) > 0.3)) continue;
    kept.push(d);
    if (kept.length === MAX_FACES) break;
  }
  return kept;
}

function iou(a: Detection, b: Detection): number {
  const ix = Math.max(
    0,
    Math.min(a.cx + a.size / 2, b.cx + b.size / 2) - Math.max(a.cx - a.size / 2, b.cx - b.size / 2),
  );
  const iy = Math.max(
    0,
    Math.min(a.cy + a.size / 2, b.cy + b.size / 2) - Math.max(a.cy - a.size / 2, b.cy - b.size / 2),
  );
  const inter = ix * iy;
  return inter / (a.size * a.size + b.size * b.size - inter);
}

/** Eye line angle (image-left eye -> image-right eye). */
function eyeAngle(p: Point, q: Point): number {
  const [l, r] = p[0] <= q[0] ? [p, q] : [q, p];
  return Math.atan2(r[1] - l[1], r[0] - l[0]);
}

/** FaceMesh on a rotated square crop; the 468 landmarks in image pixels, or undefined if not a face. */
function mesh(
  models: Models,
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
function eyes(models: Models, img: Image8, pts: Point[], angle: number): [EyeInfo, EyeInfo] {
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

function faceInfo(models: Models, img: Image8, d: Detection): FaceInfo | undefined {
  // the mesh on the detector's box, turned upright by the detector's eye line
  const angle = eyeAngle(d.kp[0], d.kp[1]);
  const m = mesh(models, img, d.cx, d.cy, d.size * 1.5, angle);
  if (!m) return undefined;
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

/** Person probability (0..255) per pixel of `img`: the selfie model at 256 x 256, resampled to the image. */
function personMask(models: Models, img: Image8): Uint8Array {
  const n = 256;
  const { pixels } = stretch(img, n);
  const prob = run(models.selfie, pixels, n)[0];
  const { width: w, height: h } = img;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(n - 1, Math.max(0, ((y + 0.5) * n) / h - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(n - 1, y0 + 1);
    const ay = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(n - 1, Math.max(0, ((x + 0.5) * n) / w - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(n - 1, x0 + 1);
      const ax = fx - x0;
      const top = prob[y0 * n + x0] + (prob[y0 * n + x1] - prob[y0 * n + x0]) * ax;
      const bot = prob[y1 * n + x0] + (prob[y1 * n + x1] - prob[y1 * n + x0]) * ax;
      out[y * w + x] = Math.round(255 * Math.min(1, Math.max(0, top + (bot - top) * ay)));
    }
  }
  return out;
}

/** The whole image stretched to n x n floats in [0, 1] (the segmentation model's input). */
function stretch(img: Image8, n: number): { pixels: Float32Array } {
  const out = new Float32Array(n * n * 3);
  const { data, width: w, height: h } = img;
  for (let v = 0; v < n; v++) {
    const fy = Math.min(h - 1, Math.max(0, ((v + 0.5) * h) / n - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ay = fy - y0;
    for (let u = 0; u < n; u++) {
      const fx = Math.min(w - 1, Math.max(0, ((u + 0.5) * w) / n - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const ax = fx - x0;
      for (let c = 0; c < 3; c++) {
        const t = data[(y0 * w + x0) * 3 + c] + (data[(y0 * w + x1) * 3 + c] - data[(y0 * w + x0) * 3 + c]) * ax;
        const b = data[(y1 * w + x0) * 3 + c] + (data[(y1 * w + x1) * 3 + c] - data[(y1 * w + x0) * 3 + c]) * ax;
        out[(v * n + u) * 3 + c] = (t + (b - t) * ay) / 255;
      }
    }
  }
  return { pixels: out };
}

/**
 * Load the models and run those of `parts` once, on zeros and in the shapes the analysis uses: a model's first run
 * sets up its kernels and grows the wasm memory (measured: the first analysis after loading took about twice as
 * long). A thread that only ever finds one part warms only its models, so its memory only grows for those.
 */
export async function warmModels(parts: readonly AnalysisPart[]): Promise<void> {
  const m = await loadModels();
  if (parts.includes('faces')) {
    run(m.detector, new Float32Array(DETECT_N * DETECT_N * 3), DETECT_N);
    run(m.facemesh, new Float32Array(192 * 192 * 3), 192);
    run(m.iris, new Float32Array(2 * 64 * 64 * 3), 64, 64, 2);
  }
  if (parts.includes('person')) run(m.selfie, new Float32Array(256 * 256 * 3), 256);
}

/** The two parts of an analysis, found separately (findFaces, findPerson) and put together by assembleAnalysis. */
export type AnalysisPart = 'faces' | 'person';

/** The faces in an analysis-size image (detector -> mesh -> iris), largest first. */
export async function findFaces(img: Image8): Promise<FaceInfo[]> {
  const models = await loadModels();
  const faces: FaceInfo[] = [];
  for (const d of detectFaces(models, img)) {
    const f = faceInfo(models, img, d);
    if (f) faces.push(f);
  }
  return faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
}

/** The person mask of an analysis-size image (0..255 per pixel). */
export async function findPerson(img: Image8): Promise<Uint8Array> {
  return personMask(await loadModels(), img);
}

/**
 * The analysis from its parts, found on the same analysis-size image. The mask is kept only when a face was
 * found: the segmentation model also lights up on cats and statues, and a photo without people must render
 * exactly as before.
 */
export function assembleAnalysis(img: Image8, faces: FaceInfo[], mask: Uint8Array | null): Analysis {
  if (faces.length === 0)
    return { version: 1, width: img.width, height: img.height, faces: [], coverage: 0, mask: null };
  if (!mask) throw new Error('faces need the person mask');
  let sum = 0;
  for (let i = 0; i < mask.length; i++) sum += mask[i];
  const coverage = Math.round((sum / 255 / mask.length) * 1e4) / 1e4;
  return roundAnalysis({
    version: 1,
    width: img.width,
    height: img.height,
    faces,
    coverage,
    mask: { width: img.width, height: img.height, data: mask },
  });
}

/**
 * Analyse decoded pixels (any size; the analysis runs at ANALYSIS_LONG px) in this thread: the faces, then the
 * person mask only when there is one (analysis-thread.ts runs the two at once in two threads; same result).
 */
export async function analyzeImage(photo: Image8): Promise<Analysis> {
  const img = analysisImage(photo);
  const faces = await findFaces(img);
  return assembleAnalysis(img, faces, faces.length > 0 ? await findPerson(img) : null);
}

export { loadModels };
