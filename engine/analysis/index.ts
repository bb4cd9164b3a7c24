/**
 * One analysis per photo, shared by every style: faces with landmarks and irises (full-range face detector over a
 * DETAIL_LONG view and its tiles -> FaceMesh -> Iris) and the people (Selfie Segmentation's person mask, MoveNet's
 * boxes) at ANALYSIS_LONG px, on tfjs-wasm. Deterministic: the same pixels give the same analysis
 * (single-threaded wasm, and the crops are sampled in plain JS).
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { FACE_CROP_N } from '../face-compare';
import type { Image8 } from '../raster';
import { type Detection, detectFaces, detectInHeads, eyeAngle, MAX_FACES } from './detect';
import { describeFaces } from './faceres';
import { loadModel } from './models';
import { detectPersons, type Head, maskInside, PERSON_N, type PersonBox } from './persons';
import { crop, resampleBilinear, run, stretch } from './sample';
import { type Analysis, type EyeInfo, type FaceInfo, type Point, roundAnalysis } from './types';

export * from './types';

/**
 * Long side of the analysis image: the frame of the analysis' coordinates and of its person mask (the preview
 * size). The faces are found on a larger view (DETAIL_LONG) and scaled into it.
 */
export const ANALYSIS_LONG = 256;
/**
 * Long side of the view the faces are found on: a face 3 % of the long side is 31 px there, enough for the
 * detector's tiles and the mesh; the person mask and the people are found on the ANALYSIS_LONG image.
 */
export const DETAIL_LONG = 1024;
/** FaceMesh face-flag under which a detection is not a face after all. */
const MESH_MIN = 0.5;
/**
 * Detector score x mesh face-flag under which a detection is not a face: measured, a motorcycle's headlight in a
 * tile 0.74 x 0.59 = 0.44, the grey, turned-away face of camera.png 0.90 x 0.68 = 0.62, frontal faces 0.7-1.
 */
const FACE_MIN = 0.5;
/** FACE_MIN where MoveNet saw a head (findHeadFaces): the person is evidence of its own. */
const HEAD_FACE_MIN = 0.3;

/** The photo at `long` px long side (area average), or the photo itself when it is that small already. */
export function analysisImage(img: Image8, long = ANALYSIS_LONG): Image8 {
  if (Math.max(img.width, img.height) <= long) return img;
  const f = long / Math.max(img.width, img.height);
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

function faceInfo(models: FaceModels, img: Image8, d: Detection, min = FACE_MIN): FaceInfo | undefined {
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

/** Person probability (0..255) per pixel of `img`: the selfie model at 256 x 256, resampled to the image. */
function personMask(selfie: GraphModel, img: Image8): Uint8Array {
  const n = 256;
  const { pixels } = stretch(img, n);
  const prob = run(selfie, pixels, n)[0];
  const out = new Uint8Array(img.width * img.height);
  resampleBilinear(prob, n, n, img.width, img.height, 1, (i, p) => {
    out[i] = Math.round(255 * Math.min(1, Math.max(0, p)));
  });
  return out;
}

interface FaceModels {
  detector: GraphModel;
  facemesh: GraphModel;
  iris: GraphModel;
}

async function faceModels(): Promise<FaceModels> {
  const [detector, facemesh, iris] = await Promise.all(
    (['facemesh-detection-full', 'facemesh', 'iris'] as const).map(loadModel),
  );
  return { detector, facemesh, iris };
}

/**
 * Load the models and run those of `parts` once, on zeros and in the shapes the analysis uses: a model's first run
 * sets up its kernels and grows the wasm memory (measured: the first analysis after loading took about twice as
 * long). A thread that only ever finds one part loads and warms only its models, so its memory only grows for those.
 */
export async function warmModels(parts: readonly AnalysisPart[]): Promise<void> {
  if (parts.includes('faces')) {
    const m = await faceModels();
    const zeros = { data: new Uint8Array(DETAIL_LONG * 768 * 3), width: DETAIL_LONG, height: 768 };
    detectFaces(m.detector, zeros, { thorough: true });
    run(m.facemesh, new Float32Array(192 * 192 * 3), 192);
    run(m.iris, new Float32Array(2 * 64 * 64 * 3), 64, 64, 2);
    // FaceRes runs in this thread too (paid renders' face keeping, the quality gate): loaded now, not on the first order
    await describeFaces([new Float32Array(FACE_CROP_N * FACE_CROP_N * 3)]);
  }
  if (parts.includes('person')) {
    // a 4:3 photo's shape (MoveNet takes the photo's own)
    const img = { data: new Uint8Array(PERSON_N * 192 * 3), width: PERSON_N, height: 192 };
    personMask(await loadModel('selfie'), img);
    detectPersons(await loadModel('movenet-multipose'), img);
  }
}

/** The two parts of an analysis, found separately (findFaces, findPerson) and put together by assembleAnalysis. */
export type AnalysisPart = 'faces' | 'person';

/**
 * What the faces part tells the people part while both run (one Int32 on a SharedArrayBuffer, shared by the two
 * analysis threads). MoveNet's people serve a photo without a face (assembleAnalysis) and the second look at heads
 * without one (findHeadFaces), so MoveNet is skipped only where neither can matter: the whole view alone found the
 * faces (detect.ts WHOLE_ENOUGH: a portrait or a couple) and the mesh confirmed one. FACES_PENDING: not known yet;
 * FACE_FOUND: so; FACES_UNSURE: the tiles start, or the search ended without a face: MoveNet is needed. The first
 * word is final, so the analysis does not depend on which thread was faster.
 */
export type FaceSignal = Int32Array;
export const FACES_PENDING = 0;
export const FACE_FOUND = 1;
export const FACES_UNSURE = 2;

export function faceSignal(): FaceSignal {
  return new Int32Array(new SharedArrayBuffer(4));
}

/**
 * Whether the whole view alone settled the faces (FACE_FOUND): the heads are then not looked at again, even when
 * MoveNet ran because its wait timed out on a loaded machine, so the analysis is the same however the threads ran.
 */
export function facesSettled(signal: FaceSignal): boolean {
  return Atomics.load(signal, 0) === FACE_FOUND;
}

function tell(signal: FaceSignal | undefined, what: typeof FACE_FOUND | typeof FACES_UNSURE): void {
  if (!signal) return;
  Atomics.compareExchange(signal, 0, FACES_PENDING, what);
  Atomics.notify(signal, 0);
}

/**
 * How long the people part waits, its mask done, for the faces part to say whether MoveNet is needed: the faces
 * part always says so (at its first face, before its tiles, at its end, on an error), so this bounds only a faces
 * thread lost mid-way. Waiting then costs nothing the analysis would not wait for anyway: it ends with the faces.
 */
const FACES_WAIT_MS = 2000;

/** The faces part of an analysis: its faces, and whether small ones were looked for everywhere (Analysis.thorough). */
export interface FacesPart {
  faces: FaceInfo[];
  thorough: boolean;
}

/**
 * The faces in a detail-size image (detector on the whole image and its tiles -> mesh -> iris), largest first, in
 * that image's pixels. `signal`: told as soon as a face is confirmed, or that none is yet when the tiles start
 * without sure subjects in the whole view.
 * `thorough`: the tiles run even beside large faces (detect.ts).
 */
export async function findFaces(detail: Image8, opts: { signal?: FaceSignal; thorough: boolean }): Promise<FacesPart> {
  const { signal } = opts;
  const faces: FaceInfo[] = [];
  let tiled = false;
  try {
    const models = await faceModels();
    const beforeTiles = (subjectsFound: boolean) => {
      tiled = true;
      // a thorough look beside a preview's sure subjects: the people part need not wait on the tiles (MoveNet is
      // skipped once the mesh confirms a face, as for the preview)
      if (!subjectsFound) tell(signal, FACES_UNSURE);
    };
    for (const d of detectFaces(models.detector, detail, { thorough: opts.thorough, beforeTiles })) {
      const f = faceInfo(models, detail, d);
      if (!f) continue;
      faces.push(f);
      tell(signal, FACE_FOUND);
    }
  } finally {
    tell(signal, FACES_UNSURE); // no face (or an error): the people part must not wait any longer
  }
  return { faces: faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]), thorough: tiled };
}

/**
 * Faces in the heads MoveNet saw where no face was found (detail-image pixels): a second, targeted look
 * (detect.ts `detectInHeads`), confirmed by the mesh at HEAD_FACE_MIN.
 */
export async function findHeadFaces(detail: Image8, heads: readonly Head[]): Promise<FaceInfo[]> {
  if (heads.length === 0) return [];
  const models = await faceModels();
  const faces: FaceInfo[] = [];
  for (const d of detectInHeads(models.detector, detail, heads)) {
    const f = faceInfo(models, detail, d, HEAD_FACE_MIN);
    if (f) faces.push(f);
  }
  return faces;
}

/**
 * The heads of `persons` (analysis-image pixels) that no face of `faces` (detail pixels; `k`: detail / analysis)
 * covers, in detail pixels: where a face may have been missed. A portrait's head has its face: no extra window.
 */
export function missedHeads(persons: readonly PersonBox[], faces: readonly FaceInfo[], k: number): Head[] {
  if (faces.length >= MAX_FACES) return [];
  const out: Head[] = [];
  for (const p of persons) {
    if (!p.head) continue;
    const h = { cx: p.head.cx * k, cy: p.head.cy * k, size: p.head.size * k, angle: p.head.angle };
    const covered = faces.some(
      ({ box: [x, y, w, bh] }) => h.cx > x - w / 2 && h.cx < x + 1.5 * w && h.cy > y - bh / 2 && h.cy < y + 1.5 * bh,
    );
    if (!covered) out.push(h);
  }
  return out;
}

/** The faces and those found in missed heads, largest first, at most MAX_FACES. */
export function withHeadFaces(faces: FaceInfo[], more: FaceInfo[]): FaceInfo[] {
  if (more.length === 0) return faces;
  return [...faces, ...more].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]).slice(0, MAX_FACES);
}

/** The people of an analysis-size image: the person mask (0..255 per pixel) and the boxes of the people seen. */
export interface PersonPart {
  mask: Uint8Array;
  /** MoveNet's people; empty, MoveNet not run, when the whole view alone found the faces (FaceSignal). */
  persons: PersonBox[];
}

/**
 * The person mask and the people of an analysis-size image. `faces`: whether the photo has a face, when known
 * (true: MoveNet is skipped), or the faces part's signal while it runs in another thread: with `wait`, the mask
 * done, this waits for its verdict (never in a thread the faces part may need: the calling thread's fallback).
 * The analysis is the same either way: only a photo without a face reads the people.
 */
export async function findPerson(
  img: Image8,
  faces?: boolean | { signal: FaceSignal; wait: boolean },
): Promise<PersonPart> {
  const mask = personMask(await loadModel('selfie'), img);
  let found = faces === true;
  if (typeof faces === 'object') {
    if (faces.wait) Atomics.wait(faces.signal, 0, FACES_PENDING, FACES_WAIT_MS);
    found = Atomics.load(faces.signal, 0) === FACE_FOUND;
  }
  if (found) return { mask, persons: [] };
  return { mask, persons: detectPersons(await loadModel('movenet-multipose'), img) };
}

/** A face found at another scale (the detail image), in analysis-image pixels (`k`: analysis / detail). */
function scaleFace(f: FaceInfo, k: number): FaceInfo {
  const pt = (p: Point): Point => [p[0] * k, p[1] * k];
  const eye = (e: EyeInfo): EyeInfo => ({
    center: pt(e.center),
    corners: [pt(e.corners[0]), pt(e.corners[1])],
    width: e.width * k,
    irisRadius: e.irisRadius * k,
    open: e.open,
  });
  return {
    score: f.score,
    box: f.box.map((v) => v * k) as FaceInfo['box'],
    eyes: { left: eye(f.eyes.left), right: eye(f.eyes.right) },
    landmarks: f.landmarks.map(pt),
  };
}

/**
 * The analysis from its parts: the faces found on the detail image (`detailWidth` px wide) and the people on the
 * analysis image. The person mask is kept when a face was found, or, inside the people's boxes, when MoveNet saw
 * someone whose face does not show; otherwise there is no mask: the segmentation model also lights up on cats and
 * statues, and a photo without people must render exactly as before.
 */
export function assembleAnalysis(
  img: Image8,
  detailWidth: number,
  found: FaceInfo[],
  person: PersonPart | null,
  thorough: boolean,
): Analysis {
  const none: Analysis = {
    version: 1,
    width: img.width,
    height: img.height,
    faces: [],
    coverage: 0,
    mask: null,
    thorough,
  };
  if (found.length === 0 && !person?.persons.length) return none;
  if (!person) throw new Error('people need the person mask');
  const faces = found.map((f) => scaleFace(f, img.width / detailWidth));
  const mask = faces.length > 0 ? person.mask : maskInside(person.mask, img.width, person.persons);
  let sum = 0;
  for (let i = 0; i < mask.length; i++) sum += mask[i];
  if (sum === 0) return none;
  const coverage = Math.round((sum / 255 / mask.length) * 1e4) / 1e4;
  return roundAnalysis({
    version: 1,
    width: img.width,
    height: img.height,
    faces,
    coverage,
    mask: { width: img.width, height: img.height, data: mask },
    thorough,
  });
}

/**
 * How carefully an analysis looks for small faces: `thorough` for a paid render (every tile, detect.ts); without it
 * (previews, tests, scripts) the tiles are skipped beside large sure faces.
 */
export interface AnalysisOptions {
  thorough?: boolean;
}

/**
 * Analyse decoded pixels (any size; the faces are found at DETAIL_LONG px, the rest at ANALYSIS_LONG) in this
 * thread: the faces and the people (analysis-thread.ts runs the two at once in two threads; same result).
 */
export async function analyzeImage(photo: Image8, opts: AnalysisOptions = {}): Promise<Analysis> {
  const detail = analysisImage(photo, DETAIL_LONG);
  const img = analysisImage(detail);
  const signal = faceSignal();
  const { faces, thorough } = await findFaces(detail, { signal, thorough: opts.thorough ?? false });
  const person = await findPerson(img, { signal, wait: false });
  const heads = facesSettled(signal) ? [] : missedHeads(person.persons, faces, detail.width / img.width);
  const more = await findHeadFaces(detail, heads);
  return assembleAnalysis(img, detail.width, withHeadFaces(faces, more), person, thorough);
}

export { loadModels } from './models';
