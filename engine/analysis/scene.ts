/**
 * The analysis as the styles use it (tf-free, sharp-free): the person mask and face regions resampled to a
 * style's own work size, and facial feature outlines as landmark polylines.
 */
import { gaussBlurInPlace } from '../filters/blur';
import {
  BROW_LINES,
  BROW_LOOPS,
  EYE_LOOPS,
  FACE_OVAL,
  LIPS_LOOP,
  LOWER_LIDS,
  MOUTH_LOWER_INNER,
  MOUTH_UPPER_INNER,
  NOSE_LINE,
  UPPER_LIDS,
} from './face-landmarks';
import type { Analysis, FaceInfo, PersonMask, Point } from './types';

/** An analysis that found people (the only kind the styles are given). */
export type Scene = Analysis & { mask: PersonMask };

/** A polyline in output pixels with a width (px) at each point. */
export interface Stroke {
  pts: Point[];
  widths: number[];
}

/** Scale from analysis pixels to an image of width `w`. */
export function frameScale(scene: Analysis, w: number): number {
  return w / scene.width;
}

/** The person mask (0..1) bilinearly resampled to w x h. */
export function personAt(scene: Scene, w: number, h: number): Float32Array {
  const { width: mw, height: mh, data } = scene.mask;
  const out = new Float32Array(w * h);
  // the columns' source positions, the same for every row: found once
  const cx0 = new Int32Array(w);
  const cx1 = new Int32Array(w);
  const cax = new Float64Array(w);
  for (let x = 0; x < w; x++) {
    const fx = Math.min(mw - 1, Math.max(0, ((x + 0.5) * mw) / w - 0.5));
    cx0[x] = fx | 0;
    cx1[x] = Math.min(mw - 1, cx0[x] + 1);
    cax[x] = fx - cx0[x];
  }
  for (let y = 0; y < h; y++) {
    const fy = Math.min(mh - 1, Math.max(0, ((y + 0.5) * mh) / h - 0.5));
    const y0 = fy | 0;
    const y1 = Math.min(mh - 1, y0 + 1);
    const ay = fy - y0;
    for (let x = 0; x < w; x++) {
      const x0 = cx0[x];
      const x1 = cx1[x];
      const ax = cax[x];
      const t = data[y0 * mw + x0] + (data[y0 * mw + x1] - data[y0 * mw + x0]) * ax;
      const b = data[y1 * mw + x0] + (data[y1 * mw + x1] - data[y1 * mw + x0]) * ax;
      out[y * w + x] = (t + (b - t) * ay) / 255;
    }
  }
  return out;
}

/** Fill the polygon (landmark indices of `face`, scaled by k, then moved by `shift`) into `out` (w x h) with value 1 (even-odd, pixel centres). */
function fillPolygon(
  out: Float32Array,
  w: number,
  h: number,
  face: FaceInfo,
  loop: readonly number[],
  k: number,
  value = 1,
  shift: Point = [0, 0],
): void {
  const pts = loop.map((i) => [face.landmarks[i][0] * k + shift[0], face.landmarks[i][1] * k + shift[1]] as Point);
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const p of pts) {
    y0 = Math.min(y0, p[1]);
    y1 = Math.max(y1, p[1]);
  }
  const xs: number[] = [];
  for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(h - 1, Math.ceil(y1)); y++) {
    const cy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xa, ya] = pts[j];
      const [xb, yb] = pts[i];
      if ((ya <= cy && yb > cy) || (yb <= cy && ya > cy)) xs.push(xa + ((cy - ya) / (yb - ya)) * (xb - xa));
    }
    xs.sort((a, b) => a - b);
    for (let m = 0; m + 1 < xs.length; m += 2) {
      for (let x = Math.max(0, Math.ceil(xs[m] - 0.5)); x <= Math.min(w - 1, Math.floor(xs[m + 1] - 0.5)); x++)
        out[y * w + x] = value;
    }
  }
}

/**
 * The box (x0, y0, x1, y1 at w x h, scale k) around the given landmarks of every face plus `reach` px, clipped to the
 * image, or undefined when it falls outside. Faces cover a small part of most photos: regions are filled and
 * feathered in such a box only; everything outside it is 0 either way.
 */
function landmarkBox(
  scene: Scene,
  k: number,
  w: number,
  h: number,
  reach: number,
  indices?: readonly number[],
): [number, number, number, number] | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const f of scene.faces) {
    for (const i of indices ?? f.landmarks.keys()) {
      const [x, y] = f.landmarks[i];
      x0 = Math.min(x0, x * k);
      y0 = Math.min(y0, y * k);
      x1 = Math.max(x1, x * k);
      y1 = Math.max(y1, y * k);
    }
  }
  const bx0 = Math.max(0, Math.floor(x0) - reach);
  const by0 = Math.max(0, Math.floor(y0) - reach);
  const bx1 = Math.min(w - 1, Math.ceil(x1) + reach);
  const by1 = Math.min(h - 1, Math.ceil(y1) + reach);
  return bx1 < bx0 || by1 < by0 ? undefined : [bx0, by0, bx1, by1];
}

/** The landmark loops of every face filled (1) in `box` and feathered by `feather`: a plane the size of the box. */
function loopsIn(
  scene: Scene,
  k: number,
  box: readonly [number, number, number, number],
  loops: readonly (readonly number[])[],
  feather: number,
): Float32Array {
  const [bx0, by0, bx1, by1] = box;
  const bw = bx1 - bx0 + 1;
  const bh = by1 - by0 + 1;
  const plane = new Float32Array(bw * bh);
  for (const f of scene.faces) for (const l of loops) fillPolygon(plane, bw, bh, f, l, k, 1, [-bx0, -by0]);
  return feather > 0 ? gaussBlurInPlace(plane, bw, bh, feather) : plane;
}

/** Feathered regions at w x h (0..1): the faces' skin (oval minus eyes, brows and lips) and the features themselves. */
export function faceRegionsAt(
  scene: Scene,
  w: number,
  h: number,
  feather: number,
): { skin: Float32Array; features: Float32Array } {
  const k = frameScale(scene, w);
  const skin = new Float32Array(w * h);
  const features = new Float32Array(w * h);
  const box = landmarkBox(scene, k, w, h, Math.ceil(3 * feather) + 2);
  if (!box) return { skin, features };
  const ovalB = loopsIn(scene, k, box, [FACE_OVAL], feather);
  const featB = loopsIn(scene, k, box, [...EYE_LOOPS, ...BROW_LOOPS, LIPS_LOOP], feather);
  const [bx0, by0, bx1, by1] = box;
  const bw = bx1 - bx0 + 1;
  for (let y = 0; y <= by1 - by0; y++) {
    for (let x = 0; x < bw; x++) {
      const j = y * bw + x;
      const i = (y + by0) * w + x + bx0;
      // features grow a little under the feather so a lid line or a lip edge is never smoothed half away
      const fv = Math.min(1, featB[j] * 1.8);
      features[i] = fv;
      skin[i] = ovalB[j] * (1 - fv);
    }
  }
  return { skin, features };
}

/** Mean colour of `work` where the faces' skin weight is high, or undefined (no skin visible at this size). */
export function skinColour(
  work: { r: Float32Array; g: Float32Array; b: Float32Array },
  skin: Float32Array,
): [number, number, number] | undefined {
  const { r, g, b } = work;
  let sr = 0;
  let sg = 0;
  let sb = 0;
  let sw = 0;
  for (let i = 0; i < skin.length; i++) {
    if (skin[i] <= 0.8) continue;
    sr += r[i];
    sg += g[i];
    sb += b[i];
    sw++;
  }
  return sw > 0 ? [sr / sw, sg / sw, sb / sw] : undefined;
}

/**
 * Facial features as ink strokes in output pixels for an image of width `w`: upper lids (bold, tapered),
 * lower lids (light), brows, the lips' meeting line(s) and the nostrils. `weight` scales every width.
 */
export function featureStrokes(scene: Scene, w: number, weight: number): Stroke[] {
  const k = frameScale(scene, w);
  const out: Stroke[] = [];
  const P = (f: FaceInfo, i: number): Point => [f.landmarks[i][0] * k, f.landmarks[i][1] * k];
  for (const f of scene.faces) {
    const eyeW = ((f.eyes.left.width + f.eyes.right.width) / 2) * k;
    const unit = Math.max(0.8, eyeW * 0.06) * weight; // line width follows the face's size in the output
    const taper = (n: number, peak: number, end: number) =>
      Array.from({ length: n }, (_, i) => end + (peak - end) * Math.sin((Math.PI * i) / (n - 1)));
    for (const lid of UPPER_LIDS)
      out.push({ pts: lid.map((i) => P(f, i)), widths: taper(lid.length, 1.6 * unit, 0.7 * unit) });
    for (const lid of LOWER_LIDS)
      out.push({ pts: lid.map((i) => P(f, i)), widths: taper(lid.length, 0.55 * unit, 0.3 * unit) });
    for (const brow of BROW_LINES) {
      const pts = brow.map(([a, b]) => [(P(f, a)[0] + P(f, b)[0]) / 2, (P(f, a)[1] + P(f, b)[1]) / 2] as Point);
      out.push({ pts, widths: taper(pts.length, 1.5 * unit, 0.6 * unit) });
    }
    const open = Math.hypot(P(f, 13)[0] - P(f, 14)[0], P(f, 13)[1] - P(f, 14)[1]) > 0.08 * eyeW;
    out.push({
      pts: MOUTH_UPPER_INNER.map((i) => P(f, i)),
      widths: taper(MOUTH_UPPER_INNER.length, 1.1 * unit, 0.4 * unit),
    });
    if (open)
      out.push({
        pts: MOUTH_LOWER_INNER.map((i) => P(f, i)),
        widths: taper(MOUTH_LOWER_INNER.length, 0.8 * unit, 0.3 * unit),
      });
    out.push({ pts: NOSE_LINE.map((i) => P(f, i)), widths: taper(NOSE_LINE.length, 0.7 * unit, 0.3 * unit) });
  }
  return out;
}

/**
 * Anti-aliased stroke coverage, one output row at a time (so strokes stay crisp at any output size without a
 * full-size plane): `row(y, out)` writes max-coverage in 0..1 into `out` (length w).
 */
export class StrokeRows {
  private readonly segs: Float64Array; // x0, y0, x1, y1, r0, r1, ymin, ymax
  private readonly n: number;

  constructor(
    strokes: readonly Stroke[],
    private readonly w: number,
  ) {
    const list: number[] = [];
    for (const s of strokes) {
      for (let i = 0; i + 1 < s.pts.length; i++) {
        const [x0, y0] = s.pts[i];
        const [x1, y1] = s.pts[i + 1];
        const r0 = s.widths[i] / 2;
        const r1 = s.widths[i + 1] / 2;
        const rm = Math.max(r0, r1) + 1;
        list.push(x0, y0, x1, y1, r0, r1, Math.min(y0, y1) - rm, Math.max(y0, y1) + rm);
      }
    }
    this.segs = Float64Array.from(list);
    this.n = list.length / 8;
  }

  get empty(): boolean {
    return this.n === 0;
  }

  row(y: number, out: Float32Array): void {
    out.fill(0);
    const cy = y + 0.5;
    const s = this.segs;
    for (let k = 0; k < this.n; k++) {
      const o = k * 8;
      if (cy < s[o + 6] || cy > s[o + 7]) continue;
      const x0 = s[o];
      const y0 = s[o + 1];
      const dx = s[o + 2] - x0;
      const dy = s[o + 3] - y0;
      const r0 = s[o + 4];
      const r1 = s[o + 5];
      const rm = Math.max(r0, r1) + 1;
      const len2 = dx * dx + dy * dy || 1e-9;
      const xa = Math.max(0, Math.floor(Math.min(x0, x0 + dx) - rm));
      const xb = Math.min(this.w - 1, Math.ceil(Math.max(x0, x0 + dx) + rm));
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5 - x0;
        const py = cy - y0;
        let t = (px * dx + py * dy) / len2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const d = Math.hypot(px - t * dx, py - t * dy);
        const r = r0 + (r1 - r0) * t;
        // 1 px anti-aliasing ramp; a hairline narrower than a pixel keeps its weight as lighter ink
        const c = Math.min(1, r * 2) * Math.min(1, Math.max(0, r + 0.5 - d));
        if (c > out[x]) out[x] = c;
      }
    }
  }
}
