import { faceRegionsAt, type Scene } from '../analysis/scene';
import { boxBlur, gaussBlurInPlace, gaussKernelBlur } from '../filters/blur';
import { saturate, tint, tone } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { Kuwahara } from '../filters/kuwahara';
import { whiteNoise } from '../filters/noise';
import { type Image8, luma, type Raster, rgb8Out, scaleOf, Upsampler } from '../raster';
import { simplifyBackground, toWork } from './common';

/**
 * Oil painting: Kuwahara brush blocks on an abstracted image (a finer brush on small high-contrast
 * features), then impasto relief from noise
 * smeared along the local edge direction (line-integral convolution of the structure-tensor
 * tangent field), lit from the top left, plus a faint canvas weave.
 */
export function oilPaint(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img, { smooth: true });
  domainTransform(work, 8 * s, 0.18, 2);
  // with people: a calmer background, and the fine brush over the whole face so it stays a likeness
  if (scene) simplifyBackground(work, s, scene, 0.5);
  const BROAD = 3.8;
  const brushes = new Kuwahara(work); // both brushes paint from the same sums
  const painted = brushes.filter(BROAD * s);
  const face = scene ? faceRegionsAt(scene, work.width, work.height, Math.max(0.7, 2 * s)) : undefined;
  keepFeatures(painted, work, brushes, s, BROAD, face && maxPlane(face.skin, face.features));
  saturate(painted, 1.3);
  tint(painted, 1.03, 1.0, 0.95);
  tone(painted, 0.95, 1.08, 0.5, 0);
  const ww = painted.width;
  const wh = painted.height;
  const n = ww * wh;
  // Structure tensor of the luminance -> stroke direction (tangent to edges).
  const L = luma(painted);
  const jxx = new Float32Array(n);
  const jxy = new Float32Array(n);
  const jyy = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const gx = L[y * ww + Math.min(ww - 1, x + 1)] - L[y * ww + Math.max(0, x - 1)];
      const gy = L[Math.min(wh - 1, y + 1) * ww + x] - L[Math.max(0, y - 1) * ww + x];
      jxx[i] = gx * gx;
      jxy[i] = gx * gy;
      jyy[i] = gy * gy;
    }
  }
  const sig = Math.max(1.5, 4 * s);
  // the tensor is needed only smoothed: in place
  const bxx = gaussBlurInPlace(jxx, ww, wh, sig);
  const bxy = gaussBlurInPlace(jxy, ww, wh, sig);
  const byy = gaussBlurInPlace(jyy, ww, wh, sig);
  const tx = new Float32Array(n);
  const ty = new Float32Array(n);
  const E0 = 2e-4; // structure-tensor energy below which strokes take the default direction
  const E1 = 2e-3; // ... and above which they follow the image
  for (let i = 0; i < n; i++) {
    // Minor eigenvector of the tensor = edge tangent. Default diagonal strokes in flat areas.
    const a = bxx[i];
    const b = bxy[i];
    const c = byy[i];
    const lam = 0.5 * (a + c - Math.sqrt((a - c) * (a - c) + 4 * b * b));
    let vx = b;
    let vy = lam - a;
    let len = Math.sqrt(vx * vx + vy * vy);
    if (len < 1e-7) {
      vx = lam - c;
      vy = b;
      len = Math.sqrt(vx * vx + vy * vy);
    }
    if (len < 1e-7) {
      vx = 0.8;
      vy = -0.6;
      len = 1;
    }
    vx /= len;
    vy /= len;
    // Where there is hardly any structure the tangent is noise, and following it paints worm-like swirls:
    // fade to the default diagonal stroke there (sign-aligned first; strokes have no direction).
    if (vx * 0.8 - vy * 0.6 < 0) {
      vx = -vx;
      vy = -vy;
    }
    const e = a + c;
    const wgt = e <= E0 ? 0 : e >= E1 ? 1 : (e - E0) / (E1 - E0);
    vx = vx * wgt + 0.8 * (1 - wgt);
    vy = vy * wgt - 0.6 * (1 - wgt);
    len = Math.sqrt(vx * vx + vy * vy) || 1;
    tx[i] = vx / len;
    ty[i] = vy / len;
  }
  const noise = gaussBlurInPlace(whiteNoise(ww, wh, 61), ww, wh, Math.max(0.6, 0.9 * s));
  const steps = Math.max(3, Math.round(7 * s));
  const strokes = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      strokes[i] = traceBoth(noise, tx, ty, ww, wh, x, y, steps) / (2 * steps + 1);
    }
  }
  // Impasto relief: height = strokes + a little luminance, differenced along the light's diagonal over
  // `off` output pixels. The difference is taken at work resolution (in work pixels) and upsampled.
  const sc = scaleOf(w, h);
  const off = (Math.max(1, Math.round(sc)) * ww) / w;
  const relief = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    const ya = Math.max(0, y - 1) * ww;
    const yb = Math.min(wh - 1, y + 1) * ww;
    for (let x = 0; x < ww; x++) {
      const xa = Math.max(0, x - 1);
      const xb = Math.min(ww - 1, x + 1);
      const hA = strokes[ya + xa] + L[ya + xa] * 0.15;
      const hB = strokes[yb + xb] + L[yb + xb] * 0.15;
      relief[y * ww + x] = (hB - hA) * off * 1.1; // (hB - hA) / 2 per work px, times 2 off work px
    }
  }
  const wx = new Float32Array(w);
  for (let x = 0; x < w; x++) wx[x] = 0.012 * Math.sin(x * 2.1);
  // Kuwahara blocks are square at work resolution; enlarged several times they show as stair steps.
  // A sub-pixel blur first rounds them (the strokes' relief keeps the paint texture at full size).
  const f = w / ww;
  const soften = 0.35 * Math.sqrt(Math.min(f, 4));
  const colour =
    f > 1.5
      ? {
          r: gaussKernelBlur(painted.r, ww, wh, soften),
          g: gaussKernelBlur(painted.g, ww, wh, soften),
          b: gaussKernelBlur(painted.b, ww, wh, soften),
        }
      : painted;
  const up = new Upsampler(ww, wh, w, h);
  // one loop blends the four fields' two source rows (the upsampler keeps them) and writes clamped bytes
  const { out, oc } = rgb8Out(w, h);
  for (let y = 0; y < h; y++) {
    const [r0, r1] = up.pair(colour.r, y);
    const [g0, g1] = up.pair(colour.g, y);
    const [b0, b1] = up.pair(colour.b, y);
    const [e0, e1] = up.pair(relief, y);
    const fy = up.fy[y];
    const wy = Math.sin(y * 2.1);
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      const rel = e0[x] + (e1[x] - e0[x]) * fy;
      const shade = 1 + rel + wx[x] * wy; // + faint canvas weave
      const spec = rel > 0.02 ? (rel - 0.02) * 0.35 : 0;
      oc[j] = ((r0[x] + (r1[x] - r0[x]) * fy) * shade + spec) * 255;
      oc[j + 1] = ((g0[x] + (g1[x] - g0[x]) * fy) * shade + spec) * 255;
      oc[j + 2] = ((b0[x] + (b1[x] - b0[x]) * fy) * shade + spec * 0.9) * 255;
    }
  }
  return out;
}

/**
 * Broad Kuwahara blocks wipe out small high-contrast features (eyes, a smile, lettering, lattice towers). Where
 * the abstracted photo has strong local contrast, blend in a fine-brush Kuwahara instead, as a painter switches
 * to a small brush for the eyes. Low-contrast texture (mottled backdrops, fur) keeps the broad strokes. In place.
 */
function keepFeatures(
  painted: Raster,
  work: Raster,
  brushes: Kuwahara,
  s: number,
  broad: number,
  faces?: Float32Array,
): void {
  const FINE = 1.2;
  // small previews: both brushes round to the same pixel radius
  if (Math.max(1, Math.round(FINE * s)) >= Math.max(1, Math.round(broad * s))) {
    if (!faces) return;
    // ... but a face still gets the finest brush there is: the photo's own abstraction
    for (let i = 0; i < faces.length; i++) {
      const k = faces[i] * 0.7;
      painted.r[i] += (work.r[i] - painted.r[i]) * k;
      painted.g[i] += (work.g[i] - painted.g[i]) * k;
      painted.b[i] += (work.b[i] - painted.b[i]) * k;
    }
    return;
  }
  const { width: w, height: h } = work;
  const n = w * h;
  const L = luma(work);
  const sq = new Float32Array(n);
  for (let i = 0; i < n; i++) sq[i] = L[i] * L[i];
  const rad = Math.max(1, Math.round(2 * s));
  const mean = boxBlur(L, w, h, rad);
  const meanSq = boxBlur(sq, w, h, rad);
  const weight = sq; // reuse
  const SD0 = 0.035; // local luma standard deviation where the fine brush starts ...
  const SD1 = 0.09; // ... and where it has taken over
  for (let i = 0; i < n; i++) {
    const sd = Math.sqrt(Math.max(0, meanSq[i] - mean[i] * mean[i]));
    weight[i] = sd <= SD0 ? 0 : sd >= SD1 ? 1 : (sd - SD0) / (SD1 - SD0);
  }
  const t = gaussBlurInPlace(weight, w, h, 1.5 * s);
  if (faces) for (let i = 0; i < n; i++) t[i] = Math.max(t[i], faces[i]);
  // below 1/1024 the fine brush changes nothing visible: those pixels (most of a calm photo) skip it
  for (let i = 0; i < n; i++) if (t[i] < 1 / 1024) t[i] = 0;
  const fine = brushes.filter(FINE * s, t);
  for (let i = 0; i < n; i++) {
    const k = t[i];
    if (k === 0) continue;
    painted.r[i] += (fine.r[i] - painted.r[i]) * k;
    painted.g[i] += (fine.g[i] - painted.g[i]) * k;
    painted.b[i] += (fine.b[i] - painted.b[i]) * k;
  }
}

/** A walk along the tangent field: where it is, its direction, and the noise summed so far. */
interface Walk {
  x: number;
  y: number;
  dx: number;
  dy: number;
  sum: number;
}

/**
 * `noise` at (x, y) plus its sums along the tangent field from there, `steps` unit steps forward (along the tangent
 * there) and as many backward, added in that order. The two walks are independent, and each step waits on the last
 * (its position picks the next tangent): they are stepped together, so the core runs one while the other waits on
 * memory.
 */
function traceBoth(
  noise: Float32Array,
  tx: Float32Array,
  ty: Float32Array,
  w: number,
  h: number,
  x: number,
  y: number,
  steps: number,
): number {
  const i = y * w + x;
  const forward: Walk = { x: x + 0.5, y: y + 0.5, dx: tx[i], dy: ty[i], sum: 0 };
  const backward: Walk = { x: x + 0.5, y: y + 0.5, dx: -forward.dx, dy: -forward.dy, sum: 0 };
  let f = true;
  let b = true;
  for (let k = 0; k < steps && (f || b); k++) {
    if (f) f = step(forward, noise, tx, ty, w, h);
    if (b) b = step(backward, noise, tx, ty, w, h);
  }
  return noise[i] + forward.sum + backward.sum;
}

/** One unit step of a walk; false once it has left the image (it stops there). */
function step(walk: Walk, noise: Float32Array, tx: Float32Array, ty: Float32Array, w: number, h: number): boolean {
  const x = walk.x + walk.dx;
  const y = walk.y + walk.dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return false;
  walk.x = x;
  walk.y = y;
  const j = (y | 0) * w + (x | 0);
  walk.sum += noise[j];
  // keep direction consistent (the tangent field has a sign ambiguity)
  const ndx = tx[j];
  const ndy = ty[j];
  const flip = ndx * walk.dx + ndy * walk.dy < 0 ? -1 : 1;
  walk.dx = ndx * flip;
  walk.dy = ndy * flip;
  return true;
}

/** Per-pixel maximum of two planes (a new plane). */
function maxPlane(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] > b[i] ? a[i] : b[i];
  return out;
}
