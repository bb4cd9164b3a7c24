/**
 * Face keeping, after the style (paid renders): "where a face cannot be treated well, treat it less, never worse
 * than the photo". For each face of the analysis, the render's likeness (face-compare.ts, FaceRes run by the
 * caller's `describe`: an analysis thread) and skin tone (skin-tone.ts) are measured. A skin tone out of bounds is
 * first moved back: the render's skin-coloured pixels in a feathered oval over the face shifted by the difference of
 * mean skin colours, to within half the bound (lines, dots and flat regions stay as the style drew them). A face
 * still unlike the photo is then blended, in the oval, toward a lightly styled version of the photo's face: the
 * photo smoothed edge-aware (the style's flattening, gently) carrying part of the render's own local colour (its
 * palette) and most of its ink, in steps, each a little more of the photo, until the face passes; the last step
 * is the photo itself inside the oval. A grey render (pencil) gets grey blends. No box, no seam: the oval fades
 * out over its outer quarter. Faces that pass are left untouched, and a render without faces is returned as it
 * is (same bytes).
 */
import type { Analysis, FaceInfo } from './analysis/types';
import {
  type Describe,
  describeRemembered,
  faceCrop,
  facePlacement,
  LIKENESS_THRESHOLD,
  similarity,
} from './face-compare';
import { colourOf, type FaceLayers, layers, type Oval } from './face-layers';
import { type Image8, smoothstep } from './raster';
import { faceSkinTone, isGrey, labToRgb, SKIN_MAX_DAB, SKIN_MAX_DL, type SkinTone, skinToneKept } from './skin-tone';

/**
 * The likeness a kept face must reach here. Above LIKENESS_THRESHOLD: the tests and the bench measure the
 * finished PNG against the photo at its own size, this check the render against the photo at the render's size,
 * and the two differ by a few hundredths.
 */
export const KEEP_TARGET = LIKENESS_THRESHOLD + 0.06;

/**
 * The target for one face: KEEP_TARGET, rising to 0.8 for faces whose likeness crop spans under 96 render pixels
 * (48 and less: all of it). A small face's crop at the render's size is blurrier than in the photo at its own
 * size, so the two measures part: a 31-px face at 0.63 here measured 0.46 against the 1600-px photo.
 */
function targetOf(f: FaceInfo, k: number): number {
  const side = facePlacement(f, k).side;
  return KEEP_TARGET + (0.8 - KEEP_TARGET) * Math.min(1, Math.max(0, (96 - side) / 48));
}

/**
 * The steps: [share of the light version in the oval, share of the render's local colour in the light version].
 * The last is the photo itself (no smoothing, no colour of the render's).
 */
const STEPS: ReadonlyArray<readonly [number, number]> = [
  [0.5, 0.6],
  [0.75, 0.5],
  [1, 0.35],
  [1, 0.15],
  [1, 0],
];
const PHOTO_STEP = STEPS.length; // step index of the plain photo

export interface FaceKept {
  /** Whether the skin tone was moved back. */
  toned: boolean;
  /** 0: not blended; 1..STEPS.length: blended by that step; STEPS.length + 1: the photo itself in the oval. */
  step: number;
  /** The likeness and skin tone measured on the result (similarity as face-compare.ts). */
  similarity: number;
  skinKept: boolean;
}

export interface KeptRender {
  data: Buffer;
  faces: FaceKept[];
}

/** Luma of RGB in 0..1 (Rec. 601, as the styles' own). */
const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * Move the skin tone of face `t` (measured on the render) back to within half the bound: `data`'s pixels in the
 * oval shifted by the difference of the mean skin colours, each by how close it is to the render's skin colour
 * (ink, eyes and hair stay).
 */
function tone(data: Buffer, width: number, l: FaceLayers, t: SkinTone): void {
  const dL = Math.max(-SKIN_MAX_DL / 2, Math.min(SKIN_MAX_DL / 2, t.render[0] - t.photo[0]));
  const kab = t.grey ? 1 : Math.min(1, SKIN_MAX_DAB / 2 / Math.max(1e-6, t.dAB));
  const target = labToRgb(
    t.photo[0] + dL,
    t.grey ? 0 : t.photo[1] + (t.render[1] - t.photo[1]) * kab,
    t.grey ? 0 : t.photo[2] + (t.render[2] - t.photo[2]) * kab,
  );
  const mean = labToRgb(t.render[0], t.grey ? 0 : t.render[1], t.grey ? 0 : t.render[2]);
  const d = [target[0] - mean[0], target[1] - mean[1], target[2] - mean[2]];
  if (t.grey) d[0] = d[1] = d[2] = luma(d[0], d[1], d[2]); // a grey render stays exactly grey
  const { oval, mask } = l;
  const s2 = 2 * 60 * 60;
  for (let y = 0; y < oval.h; y++) {
    for (let x = 0, i = y * oval.w, j = ((oval.y0 + y) * width + oval.x0) * 3; x < oval.w; x++, i++, j += 3) {
      if (mask[i] <= 0) continue;
      const e = (data[j] - mean[0]) ** 2 + (data[j + 1] - mean[1]) ** 2 + (data[j + 2] - mean[2]) ** 2;
      const w = mask[i] * Math.exp(-e / s2);
      for (let c = 0; c < 3; c++) data[j + c] = Math.round(Math.min(255, Math.max(0, data[j + c] + d[c] * w)));
    }
  }
}

/** Share of the render's ink (its near-black lines) a blend keeps, short of the last step. */
const INK_KEPT = 0.7;

/**
 * Blend step `step` (index into STEPS, or PHOTO_STEP) of a face into `data` (the render, interleaved RGB8, its skin
 * tone already moved back if it had to be). `grey`: the render has no colour, nor will the blend.
 */
function blend(data: Buffer, width: number, l: FaceLayers, step: number, grey: boolean): void {
  const [share, colourShare] = step === PHOTO_STEP ? [1, 0] : STEPS[step];
  const plain = step === PHOTO_STEP;
  const base = plain ? l.photo : l.smooth;
  l.colour ??= colourOf(l, { data, width, height: data.length / 3 / width });
  const { oval, mask, colour } = l;
  const px = [0, 0, 0];
  for (let y = 0; y < oval.h; y++) {
    for (let x = 0, i = y * oval.w, j = ((oval.y0 + y) * width + oval.x0) * 3; x < oval.w; x++, i++, j += 3) {
      let m = mask[i] * share;
      if (m <= 0) continue;
      px[0] = (base.r[i] + colourShare * colour.r[i]) * 255;
      px[1] = (base.g[i] + colourShare * colour.g[i]) * 255;
      px[2] = (base.b[i] + colourShare * colour.b[i]) * 255;
      if (grey) px[0] = px[1] = px[2] = luma(px[0], px[1], px[2]);
      if (!plain) m *= 1 - INK_KEPT * (1 - smoothstep(0.08, 0.25, luma(data[j], data[j + 1], data[j + 2]) / 255));
      for (let c = 0; c < 3; c++)
        data[j + c] = Math.round(Math.min(255, Math.max(0, data[j + c] + (px[c] - data[j + c]) * m)));
    }
  }
}

/**
 * The cell size a kept face is redrawn on: the style's `grid`, finer for a small face (at least 24 cells across
 * its width), none under 2 px or at the last step (the photo: never worse than it).
 */
function gridFor(f: FaceInfo, k: number, grid: number, step: number): number | undefined {
  const cell = Math.min(grid, (f.box[2] * k) / 24);
  return cell >= 2 && step < PHOTO_STEP ? cell : undefined;
}

/**
 * A grid style's face: each cell of size `cell` (output px, cells from the origin as the style's) in the oval's
 * rectangle painted its mean colour, so the blended face is blocks like the rest.
 */
function onGrid(data: Buffer, width: number, o: Oval, cell: number): void {
  const c0 = Math.floor(o.x0 / cell);
  const c1 = Math.floor((o.x0 + o.w - 1) / cell);
  const r0 = Math.floor(o.y0 / cell);
  const r1 = Math.floor((o.y0 + o.h - 1) / cell);
  // pixel x belongs to cell floor(x / cell): the first pixel of cell c is ceil(c * cell)
  const start = (c: number, lo: number) => Math.max(lo, Math.ceil(c * cell));
  for (let r = r0; r <= r1; r++) {
    const ya = start(r, o.y0);
    const yb = Math.min(o.y0 + o.h, start(r + 1, 0));
    for (let c = c0; c <= c1; c++) {
      const xa = start(c, o.x0);
      const xb = Math.min(o.x0 + o.w, start(c + 1, 0));
      const sum = [0, 0, 0];
      for (let y = ya; y < yb; y++)
        for (let x = xa, j = (y * width + x) * 3; x < xb; x++, j += 3)
          for (let k = 0; k < 3; k++) sum[k] += data[j + k];
      const n = (yb - ya) * (xb - xa);
      if (n <= 0) continue;
      for (let y = ya; y < yb; y++)
        for (let x = xa, j = (y * width + x) * 3; x < xb; x++, j += 3)
          for (let k = 0; k < 3; k++) data[j + k] = Math.round(sum[k] / n);
    }
  }
}

/** The rectangle of `o` in `data` (interleaved RGB8 rows `width` wide) copied back from `from`. */
function restore(data: Buffer, from: Buffer, width: number, o: Oval): void {
  for (let y = o.y0; y < o.y0 + o.h; y++) {
    const start = (y * width + o.x0) * 3;
    from.copy(data, start, start, start + o.w * 3);
  }
}

/**
 * Keep every face of `analysis` recognisable in `styled` (the style's render of `photo`, same size), with its skin
 * tone. Returns the render (the same buffer when no face needed anything) and what was done to each face. `grid`: a
 * grid style's cell size for kept faces (StyleEngine.keepGrid).
 */
export async function keepFaces(
  photo: Image8,
  styled: Image8,
  analysis: Analysis | null | undefined,
  describe: Describe,
  grid?: number,
): Promise<KeptRender> {
  const faces = analysis?.faces ?? [];
  const original = Buffer.from(styled.data.buffer, styled.data.byteOffset, styled.data.byteLength);
  if (!analysis || faces.length === 0) return { data: original, faces: [] };
  const aw = analysis.width;
  const grey = isGrey(styled);
  const want = await describeRemembered(
    faces.map((f) => faceCrop(photo, f, aw)),
    describe,
  );
  const kept: FaceKept[] = faces.map(() => ({ toned: false, step: 0, similarity: 0, skinKept: false }));
  const tones = faces.map((f) => faceSkinTone(photo, styled, f, aw, grey));
  const targets = faces.map((f) => targetOf(f, photo.width / aw));
  const built = new Map<number, FaceLayers>();
  let data = original;
  let pending = faces.map((_, i) => i);
  while (pending.length > 0) {
    const img = { data, width: photo.width, height: photo.height };
    // remembered too: the quality gate then measures the finished render's faces without FaceRes
    const got = await describeRemembered(
      pending.map((i) => faceCrop(img, faces[i], aw)),
      describe,
    );
    pending.forEach((i, n) => {
      kept[i].similarity = similarity(want[i], got[n]);
      kept[i].skinKept = skinToneKept(faceSkinTone(photo, img, faces[i], aw, grey));
    });
    // a face at the last step is as close to the photo as it gets
    pending = pending.filter(
      (i) => (kept[i].similarity < targets[i] || !kept[i].skinKept) && kept[i].step <= PHOTO_STEP,
    );
    if (pending.length === 0) break;
    for (const i of pending) {
      // the tone first (it keeps the style's drawing); the blends when that is not enough
      if (!kept[i].toned && !skinToneKept(tones[i])) kept[i].toned = true;
      else kept[i].step++;
    }
    // everything redrawn from the style's render, in face order: an oval over a neighbour's stays in its place. Only
    // the ovals' rectangles are ever drawn in, so a copy made once gets just those back (a 2048-px render is 12 MB)
    if (data === original) data = Buffer.from(original);
    else for (const l of built.values()) restore(data, original, photo.width, l.oval);
    faces.forEach((f, i) => {
      const k = kept[i];
      if (!k.toned && k.step === 0) return;
      let l = built.get(i);
      if (!l) {
        l = layers(photo, f, analysis);
        built.set(i, l);
      }
      if (k.toned) tone(data, photo.width, l, tones[i]);
      if (k.step > 0) blend(data, photo.width, l, k.step - 1, grey);
      const cell = grid && gridFor(f, photo.width / aw, grid, k.step - 1);
      if (cell) onGrid(data, photo.width, l.oval, cell);
    });
  }
  return { data, faces: kept };
}
