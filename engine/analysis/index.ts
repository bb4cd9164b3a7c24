/**
 * One analysis per photo, shared by every style: faces with landmarks and irises (full-range face detector over a
 * DETAIL_LONG view and its tiles -> FaceMesh -> Iris) and the people (Selfie Segmentation's person mask, MoveNet's
 * boxes) at ANALYSIS_LONG px, on tfjs-wasm. Deterministic: the same pixels give the same analysis
 * (single-threaded wasm, and the crops are sampled in plain JS).
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { FACE_CROP_N } from '../face-compare';
import type { Image8 } from '../raster';
import { detectFaces, detectInHeads, MAX_FACES } from './detect';
import { faceInfo, faceModels, HEAD_FACE_MIN } from './face-mesh';
import {
  FACE_FOUND,
  FACES_PENDING,
  FACES_UNSURE,
  FACES_WAIT_MS,
  type FaceSignal,
  faceSignal,
  facesSettled,
  tell,
} from './face-signal';
import { describeFaces } from './faceres';
import { loadModel } from './models';
import { detectPersons, type Head, maskInside, PERSON_N, type PersonBox } from './persons';
import { resampleBilinear, run, stretch } from './sample';
import { type Analysis, type EyeInfo, type FaceInfo, type Point, roundAnalysis } from './types';

export { FACE_FOUND, FACES_PENDING, FACES_UNSURE, type FaceSignal, faceSignal, facesSettled } from './face-signal';
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
