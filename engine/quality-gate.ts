/**
 * The quality gate: may an image made from a photo be delivered as that photo's image? One definition for every
 * renderer (the engine server's outputs, the generative path's model images). An output passes when
 *  - it is not flat: the spread of its grey levels (standard deviation, 0..255) is at least CONTRAST_FLOOR, so a
 *    blank, single-colour or near-uniform image fails; and
 *  - it keeps the photo's structure: the correlation of the two images' edge maps (Sobel magnitude of the grey
 *    image, both brought to the same GRID × GRID) is at least STRUCTURE_FLOOR.
 *  - (when asked) every face of the photo is still there and the same person: its likeness (likeness.ts) at the
 *    same place in the output is at least LIKENESS_THRESHOLD.
 * Floors are set under what every engine style scores on the fixture photos (engine/README.md, "Quality gate"),
 * so honest work passes; a blank image scores 0 on both.
 *
 * The face check runs FaceRes in the analysis thread (likeness.ts), so it needs the engine's models: the engine
 * server runs it (its paid renders, and the generative path's images through its `check` operation).
 */
import sharp from 'sharp';
import type { Analysis } from './analysis/types';
import { ImageInputError } from './errors';
import { type FaceLikeness, LIKENESS_THRESHOLD, likeness } from './likeness';
import type { Image8 } from './raster';

/** Side of the square both images are compared at: edges of the photo's shapes, not of its texture. */
export const GRID = 96;
/** Lowest edge correlation a delivered image may have with its photo. */
export const STRUCTURE_FLOOR = 0.2;
/** Lowest grey-level standard deviation (0..255) of a delivered image. */
export const CONTRAST_FLOOR = 6;

export interface QualityMeasures {
  /** Pearson correlation of the Sobel edge magnitudes, -1..1 (0 when either image has no edges). */
  edgeCorrelation: number;
  /** Standard deviation of the output's grey levels, 0..255. */
  contrast: number;
  /** Each face of the photo and its likeness in the output, when faces were checked (none found: []). */
  faces?: FaceLikeness[];
}

/** Which check an image failed: for the logs and the metric's reading, the reason says it to the customer. */
export type QualityCheck = 'contrast' | 'structure' | 'faces';
export type QualityFailure = QualityMeasures & { ok: false; check: QualityCheck; reason: string };
export type QualityResult = (QualityMeasures & { ok: true }) | QualityFailure;

/** Sobel gradient magnitude of a `n` × `n` grey image (borders 0). */
export function edgeMap(grey: Uint8Array | Float32Array, n: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let y = 1; y < n - 1; y++) {
    for (let x = 1; x < n - 1; x++) {
      const p = (dx: number, dy: number) => grey[(y + dy) * n + x + dx];
      const gx = p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1);
      const gy = p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1);
      out[y * n + x] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/** Pearson correlation; 0 when either series is constant (no structure to agree with). */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa < 1e-9 || sbb < 1e-9 ? 0 : sab / Math.sqrt(saa * sbb);
}

/** Standard deviation of grey levels. */
export function spread(grey: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < grey.length; i++) m += grey[i];
  m /= grey.length;
  let v = 0;
  for (let i = 0; i < grey.length; i++) v += (grey[i] - m) ** 2;
  return Math.sqrt(v / grey.length);
}

/** Both measures from two grey GRID × GRID images. */
export function measure(photoGrey: Uint8Array, outputGrey: Uint8Array, n = GRID): QualityMeasures {
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    edgeCorrelation: r(correlation(edgeMap(photoGrey, n), edgeMap(outputGrey, n))),
    contrast: r(spread(outputGrey)),
  };
}

/** The verdict on measures, with the reason a failure is refunded for. */
export function verdict(m: QualityMeasures): QualityResult {
  if (m.contrast < CONTRAST_FLOOR)
    return {
      ...m,
      ok: false,
      check: 'contrast',
      reason: `The image came out blank or flat (contrast ${m.contrast} < ${CONTRAST_FLOOR}).`,
    };
  if (m.edgeCorrelation < STRUCTURE_FLOOR)
    return {
      ...m,
      ok: false,
      check: 'structure',
      reason: `The image lost the photo's structure (edge correlation ${m.edgeCorrelation} < ${STRUCTURE_FLOOR}).`,
    };
  const lost = (m.faces ?? []).filter((f) => f.similarity < LIKENESS_THRESHOLD);
  if (lost.length > 0) {
    const worst = Math.min(...lost.map((f) => f.similarity));
    const n = m.faces!.length;
    const which =
      n === 1
        ? 'The face in the photo was'
        : `${lost.length} of the ${n} faces in the photo ${lost.length === 1 ? 'was' : 'were'}`;
    return {
      ...m,
      ok: false,
      check: 'faces',
      reason: `${which} lost or changed: not recognisable as the same person (likeness ${worst} < ${LIKENESS_THRESHOLD}).`,
    };
  }
  return { ...m, ok: true };
}

/**
 * Grey GRID × GRID pixels of an image (any size or aspect: stretched, so the photo's geometry lines up): its bytes,
 * or its RGB pixels (the same values as its lossless PNG decoded).
 */
async function gridGrey(image: Buffer | Image8, what: string): Promise<Uint8Array> {
  let raw: Buffer;
  try {
    const input = Buffer.isBuffer(image)
      ? sharp(image, { limitInputPixels: false }).rotate()
      : sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
    raw = await input.greyscale().resize(GRID, GRID, { fit: 'fill' }).raw().toBuffer();
  } catch (err) {
    throw new ImageInputError(`The ${what} is not a readable image.`, { cause: err });
  }
  return new Uint8Array(raw.buffer, raw.byteOffset, GRID * GRID);
}

export interface CheckOptions {
  /** Check the photo's faces too (needs the engine's models; see the header). */
  faces?: boolean;
  /** The photo's analysis when the caller has it (e.g. cached); else computed for the face check. */
  analysis?: Analysis;
  /**
   * The output's own pixels when the caller has them (the engine server's render, of which `output` is the lossless
   * PNG): measured without decoding the PNG again, with the same results.
   */
  pixels?: Image8;
}

/**
 * Checks an output (PNG/JPEG bytes) against the photo it was made from (PNG/JPEG bytes, any size). Faces are
 * measured only when asked and the image passed the other checks (a blank image has no face to compare).
 */
export async function checkQuality(photo: Buffer, output: Buffer, opts: CheckOptions = {}): Promise<QualityResult> {
  const rendered = opts.pixels ?? output;
  const [p, o] = await Promise.all([gridGrey(photo, 'photo'), gridGrey(rendered, 'image to check')]);
  const m = measure(p, o);
  const structural = verdict(m);
  if (!opts.faces || !structural.ok) return structural;
  const { faces } = await likeness(photo, rendered, opts.analysis);
  return verdict({ ...m, faces });
}
