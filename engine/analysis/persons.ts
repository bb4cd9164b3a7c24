/**
 * People whether or not a face shows (seen from behind, full body, face cut off): MoveNet MultiPose (up to six
 * people, each a box and 17 body keypoints) on the analysis image at 256 px long side, contrast normalised.
 * The person mask of a photo without a visible face is kept only inside these boxes, so a cat or a statue that
 * lights up the segmentation model still leaves a photo without people as it was.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Image8 } from '../raster';
import { tf } from './models';
import { crop, normaliseContrast, valuesOf } from './sample';

export const PERSON_N = 256;
/** MoveNet person score under which a detection is not a person. */
const PERSON_MIN = 0.3;
/** Keypoints that must be confidently seen (of 17) for a box to count: a lone hand-shaped blob is not a person. */
const MIN_KEYPOINTS = 4;

/** A person's box in image pixels: x, y, w, h, and its score. */
export interface PersonBox {
  box: [number, number, number, number];
  score: number;
  /** Where the head is, when its keypoints are seen: a face the detector missed is looked for there. */
  head?: Head;
}

/** A head from MoveNet's keypoints, in image pixels: centre, about the face's size, and its roll (eye line). */
export interface Head {
  cx: number;
  cy: number;
  size: number;
  angle: number;
}

/** Head keypoints (nose, eyes, ears) that must be seen for a head to count: two give its place and size. */
const HEAD_KEYPOINTS = 2;

/** The head of a person from MoveNet's keypoints (x, y, score in image pixels), if seen well enough. */
function headOf(kp: readonly [number, number, number][]): Head | undefined {
  const seen = kp.slice(0, 5).filter((p) => p[2] >= PERSON_MIN);
  if (seen.length < HEAD_KEYPOINTS) return undefined;
  let span = 0;
  for (const p of seen) for (const q of seen) span = Math.max(span, Math.hypot(p[0] - q[0], p[1] - q[1]));
  // ears are about a face apart; eyes or nose and an eye much less; shoulders are two or three faces apart
  const [ls, rs] = [kp[5], kp[6]];
  const shoulders = ls[2] >= PERSON_MIN && rs[2] >= PERSON_MIN ? Math.hypot(ls[0] - rs[0], ls[1] - rs[1]) / 2.5 : 0;
  const size = Math.max(span * 1.2, shoulders);
  if (size <= 0) return undefined;
  const cx = seen.reduce((a, p) => a + p[0], 0) / seen.length;
  const cy = seen.reduce((a, p) => a + p[1], 0) / seen.length;
  const [le, re] = [kp[1], kp[2]];
  const eyes = le[2] >= PERSON_MIN && re[2] >= PERSON_MIN;
  // the subject's left eye is on the image's right
  const angle = eyes ? Math.atan2(le[1] - re[1], le[0] - re[0]) : 0;
  return { cx, cy, size, angle: Math.abs(angle) < Math.PI / 2 ? angle : 0 };
}

/** The people MoveNet sees in `img`, best first. */
export function detectPersons(model: GraphModel, img: Image8): PersonBox[] {
  // the photo's own shape, PERSON_N on its long side and the short one padded to a multiple of 32 (the model's
  // stride), rather than a letterboxed square: a 4:3 photo costs three quarters of the square's CPU
  const side = Math.max(img.width, img.height);
  const k = PERSON_N / side;
  const n = Math.ceil((img.width * k) / 32) * 32;
  const m = Math.ceil((img.height * k) / 32) * 32;
  const { pixels } = crop(img, img.width / 2, img.height / 2, n / k, 0, n, false, m);
  normaliseContrast(pixels);
  const ints = new Int32Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) ints[i] = Math.round(pixels[i] * 255);
  const [out] = valuesOf(() => {
    const res = model.execute(tf.tensor4d(ints, [1, m, n, 3], 'int32'));
    return Array.isArray(res) ? res[0] : res;
  });
  // per person: 17 x (y, x, score), then ymin, xmin, ymax, xmax, score; all in 0..1 of the input's height, width
  const x0 = img.width / 2 - n / k / 2;
  const y0 = img.height / 2 - m / k / 2;
  const iw = n / k;
  const ih = m / k;
  const found: PersonBox[] = [];
  for (let p = 0; p < out.length / 56; p++) {
    const r = out.subarray(p * 56, p * 56 + 56);
    const score = r[55];
    if (score < PERSON_MIN) continue;
    let seen = 0;
    for (let k = 0; k < 17; k++) if (r[k * 3 + 2] >= PERSON_MIN) seen++;
    if (seen < MIN_KEYPOINTS) continue;
    const bx0 = Math.max(0, x0 + r[52] * iw);
    const by0 = Math.max(0, y0 + r[51] * ih);
    const bx1 = Math.min(img.width, x0 + r[54] * iw);
    const by1 = Math.min(img.height, y0 + r[53] * ih);
    if (bx1 <= bx0 || by1 <= by0) continue;
    const kp = Array.from({ length: 17 }, (_, j): [number, number, number] => [
      x0 + r[j * 3 + 1] * iw,
      y0 + r[j * 3] * ih,
      r[j * 3 + 2],
    ]);
    const head = headOf(kp);
    found.push({ box: [bx0, by0, bx1 - bx0, by1 - by0], score, ...(head ? { head } : {}) });
  }
  return found.sort((a, b) => b.score - a.score);
}

/** `mask` (0..255 per pixel of a w-wide image) kept only inside the boxes, each grown by a fifth (hair, hands). */
export function maskInside(mask: Uint8Array, w: number, boxes: readonly PersonBox[]): Uint8Array {
  const h = mask.length / w;
  const keep = new Uint8Array(mask.length);
  for (const { box } of boxes) {
    const gx = box[2] * 0.1;
    const gy = box[3] * 0.1;
    const xa = Math.max(0, Math.floor(box[0] - gx));
    const xb = Math.min(w, Math.ceil(box[0] + box[2] + gx));
    const ya = Math.max(0, Math.floor(box[1] - gy));
    const yb = Math.min(h, Math.ceil(box[1] + box[3] + gy));
    for (let y = ya; y < yb; y++) keep.fill(1, y * w + xa, y * w + xb);
  }
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = keep[i] ? mask[i] : 0;
  return out;
}
