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
import type { Analysis, FaceInfo, PersonMask } from './analysis/types';
import {
  type Describe,
  describeRemembered,
  faceCrop,
  facePlacement,
  LIKENESS_THRESHOLD,
  similarity,
} from './face-compare';
import { gaussBlur } from './filters/blur';
import { domainTransform } from './filters/edge-aware';
import { createRaster, type Image8, type Raster, smoothstep } from './raster';
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

/** The oval around a face in render pixels, and the rectangle it needs. */
interface Oval {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  cos: number;
  sin: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
}

function ovalOf(f: FaceInfo, k: number, width: number, height: number): Oval {
  const p = facePlacement(f, k);
  // the face-mesh box runs brow to chin and cheek to cheek: the oval takes in the forehead, ears and jaw line
  const rx = 0.5 * f.box[2] * k * 1.3;
  const ry = 0.5 * f.box[3] * k * 1.3;
  const reach = Math.max(rx, ry);
  const x0 = Math.max(0, Math.floor(p.c[0] - reach));
  const y0 = Math.max(0, Math.floor(p.c[1] - reach));
  const x1 = Math.min(width, Math.ceil(p.c[0] + reach));
  const y1 = Math.min(height, Math.ceil(p.c[1] + reach));
  return {
    cx: p.c[0],
    cy: p.c[1],
    rx,
    ry,
    cos: Math.cos(p.angle),
    sin: Math.sin(p.angle),
    x0,
    y0,
    w: x1 - x0,
    h: y1 - y0,
  };
}

function regionRaster(img: Image8, o: Oval): Raster {
  const r = createRaster(o.w, o.h);
  for (let y = 0; y < o.h; y++) {
    for (let x = 0, i = y * o.w, j = ((o.y0 + y) * img.width + o.x0) * 3; x < o.w; x++, i++, j += 3) {
      r.r[i] = img.data[j] / 255;
      r.g[i] = img.data[j + 1] / 255;
      r.b[i] = img.data[j + 2] / 255;
    }
  }
  return r;
}

/** What a face's blends are made of, in its oval's rectangle. */
interface FaceLayers {
  oval: Oval;
  /** The feathered oval, 0..1. */
  mask: Float32Array;
  /** The photo, the photo smoothed, and the (toned) render's local colour minus the smoothed photo's. */
  photo: Raster;
  smooth: Raster;
  colour?: Raster;
  /** Blur of the local colour. */
  sigma: number;
}

/** The person mask (analysis frame, 0..255) at a point of the analysis frame, bilinear. */
function personAt(m: PersonMask, x: number, y: number): number {
  const fx = Math.min(m.width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(m.height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(m.width - 1, x0 + 1);
  const y1 = Math.min(m.height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const d = m.data;
  const top = d[y0 * m.width + x0] * (1 - ax) + d[y0 * m.width + x1] * ax;
  const bottom = d[y1 * m.width + x0] * (1 - ax) + d[y1 * m.width + x1] * ax;
  return (top * (1 - ay) + bottom * ay) / 255;
}

/** Whether the person mask holds the face: ≥ 0.7 on average over the middle of its box. */
function coversFace(m: PersonMask, f: FaceInfo): boolean {
  const [x, y, w, h] = f.box;
  let sum = 0;
  for (let j = 1; j <= 5; j++) for (let i = 1; i <= 5; i++) sum += personAt(m, x + (w * i) / 6, y + (h * j) / 6);
  return sum / 25 >= 0.7;
}

function layers(photo: Image8, f: FaceInfo, analysis: Analysis): FaceLayers {
  const analysisWidth = analysis.width;
  const k = photo.width / analysisWidth;
  const oval = ovalOf(f, k, photo.width, photo.height);
  const { w, h } = oval;
  const mask = new Float32Array(w * h);
  // the person mask (256 px) draws a small face's head poorly: it bounds the oval only where it covers the face
  const person = analysis.mask && coversFace(analysis.mask, f) ? analysis.mask : null;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = oval.x0 + x + 0.5;
      const py = oval.y0 + y + 0.5;
      const dx = px - oval.cx;
      const dy = py - oval.cy;
      const u = (dx * oval.cos + dy * oval.sin) / oval.rx;
      const v = (-dx * oval.sin + dy * oval.cos) / oval.ry;
      const m = 1 - smoothstep(0.72, 1, Math.hypot(u, v));
      // only the person: the photo's backdrop in the oval's corners would glow through the style's
      mask[y * w + x] = m > 0 && person ? m * smoothstep(0.2, 0.7, personAt(person, px / k, py / k)) : m;
    }
  }
  const src = regionRaster(photo, oval);
  const side = Math.max(f.box[2], f.box[3]) * (photo.width / analysisWidth);
  // pores and fine wrinkles flattened, features kept: the styles' own abstraction, applied gently
  const smooth = domainTransform(
    { width: w, height: h, r: src.r.slice(), g: src.g.slice(), b: src.b.slice() },
    Math.max(1, side * 0.03),
    0.1,
    2,
  );
  return { oval, mask, photo: src, smooth, sigma: Math.max(1, side * 0.06) };
}

/** The render's local colour over the smoothed photo's, from `render` as it is now (its tone moved back). */
function colourOf(l: FaceLayers, render: Image8): Raster {
  const { w, h } = l.oval;
  const out = regionRaster(render, l.oval);
  const colour = createRaster(w, h);
  for (const c of ['r', 'g', 'b'] as const) {
    const a = gaussBlur(out[c], w, h, l.sigma);
    const b = gaussBlur(l.smooth[c], w, h, l.sigma);
    for (let i = 0; i < a.length; i++) colour[c][i] = a[i] - b[i];
  }
  return colour;
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
    // everything redrawn from the style's render, in face order: an oval over a neighbour's stays in its place
    data = Buffer.from(original);
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
