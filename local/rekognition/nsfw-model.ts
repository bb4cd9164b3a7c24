/**
 * Local content-moderation model for the Rekognition stand-in (./server.ts): nsfwjs's bundled MobileNetV2 (224×224
 * input, 5 softmax classes), read from node_modules (nothing is fetched), on tfjs's wasm backend as the engine starts
 * it. Loaded lazily, once per process; concurrent callers share the load.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { NSFWJS } from 'nsfwjs/core';
import { MobileNetV2Model } from 'nsfwjs/models/mobilenet_v2';
import sharp from 'sharp';
import { sniffType } from '../../domain/image-format';
import { wasmBackend } from '../../engine/analysis/models';

/** nsfwjs output order (node_modules/nsfwjs/dist/cjs/nsfw_classes.js). */
export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
/** Class probabilities in 0..1 (softmax, sums to ~1). */
export type NsfwScores = Record<(typeof NSFW_CLASSES)[number], number>;

/** Same shape as Rekognition's ModerationLabel ("" ParentName for a top-level label, as Rekognition does). */
export interface ModerationLabel {
  Confidence: number;
  Name: string;
  ParentName: string;
  TaxonomyLevel: number;
}

export const MODERATION_MODEL_VERSION = 'local-nsfwjs-mobilenetv2';
const MODEL_INPUT_SIZE = 224;
/** Rekognition's default MinConfidence. */
export const DEFAULT_MIN_CONFIDENCE = 50;
/** Decoded-pixel cap (sharp limitInputPixels); larger images → ImageTooLargeException. 100 MP. */
const MAX_INPUT_PIXELS = 100_000_000;

// nsfwjs classes → Rekognition's moderation taxonomy, model version 7 (mapScoresToModerationLabels below): Porn and
// Hentai are 'Explicit' with one L2 child each, Sexy is 'Swimwear or Underwear', Drawing and Neutral give no label;
// Drawing + Hentai is the 'Illustrated' content type. nsfwjs's Sexy class is "suggestive, not pornography" (swimwear,
// underwear, sportswear, bare chests), which Rekognition files under 'Swimwear or Underwear' or under allowed L3s of
// 'Non-Explicit Nudity' (bare back, male nipple): the model cannot tell those from the real nudity L3s, so it must not
// claim nudity at any confidence (it once refused a footballer in shorts at 89 %), and its L2 children (Female/Male)
// need a gender the model does not give. The classes are exclusive softmax outputs, so a parent's confidence (the sum
// of its children's) is never below a child's. Level-3 labels and the other categories (Violence, Drugs & Tobacco,
// Hate Symbols, ...) cannot be derived from this model and are never returned.

const pct = (p: number) => (Number.isFinite(p) ? Math.min(100, Math.max(0, p * 100)) : 0);

/**
 * Pure mapping from nsfwjs class probabilities (0..1) to Rekognition v7 moderation labels (Confidence in percent),
 * keeping labels with Confidence ≥ minConfidence. Sorted by confidence (desc), parents before children on ties.
 */
export function mapScoresToModerationLabels(
  scores: NsfwScores,
  minConfidence: number = DEFAULT_MIN_CONFIDENCE,
): ModerationLabel[] {
  const out: ModerationLabel[] = [];
  const add = (Name: string, ParentName: string, TaxonomyLevel: number, p: number): void => {
    const Confidence = pct(p);
    if (Confidence >= minConfidence && Confidence > 0) out.push({ Confidence, Name, ParentName, TaxonomyLevel });
  };
  add('Explicit', '', 1, scores.Porn + scores.Hentai);
  add('Explicit Nudity', 'Explicit', 2, scores.Porn);
  add('Explicit Sexual Activity', 'Explicit', 2, scores.Hentai);
  add('Swimwear or Underwear', '', 1, scores.Sexy);
  return out.sort((a, b) => b.Confidence - a.Confidence || a.TaxonomyLevel - b.TaxonomyLevel);
}

/** Pure mapping to Rekognition's ContentTypes (only 'Illustrated' can be derived from nsfwjs). */
export function mapScoresToContentTypes(scores: NsfwScores, minConfidence: number = DEFAULT_MIN_CONFIDENCE) {
  const Confidence = pct(scores.Drawing + scores.Hentai);
  return Confidence >= minConfidence && Confidence > 0 ? [{ Confidence, Name: 'Illustrated' }] : [];
}

/** Raised for bad input; `code` is the Rekognition exception name the server should answer with. */
export class ModerationInputError extends Error {
  constructor(readonly code: 'InvalidImageFormatException' | 'ImageTooLargeException') {
    super(code === 'ImageTooLargeException' ? 'Image size is too large.' : 'Request has invalid image format');
  }
}

/**
 * Decode (EXIF-rotate, flatten alpha on white, sRGB) and resize to the model's size×size RGB bytes, in one sharp
 * pipeline, so JPEG shrink-on-load decodes big photos at ≤1/8 scale. 'fill' (aspect-ratio stretch) is how the
 * nsfwjs model was trained and used (a plain resize to 224²). Rekognition accepts JPEG and PNG only.
 */
async function decodeToRgb(image: Buffer): Promise<Uint8Array> {
  if (!sniffType(image)) throw new ModerationInputError('InvalidImageFormatException');
  try {
    const { data } = await sharp(image, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, { fit: 'fill', fastShrinkOnLoad: true })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (err) {
    const tooLarge = /pixel limit/i.test(err instanceof Error ? err.message : String(err));
    throw new ModerationInputError(tooLarge ? 'ImageTooLargeException' : 'InvalidImageFormatException');
  }
}

let loading: Promise<NSFWJS> | undefined;

/**
 * The weight shards beside nsfwjs's model registry (dist/models/mobilenet_v2), each a module whose export is its bytes
 * as base64 text, required by their files. nsfwjs's own loaders (`weightBundles`) wrap that export in TypeScript's
 * `__importStar`, which copies a string's 3.5 million characters into as many getters: 9 s of CPU per process.
 */
function weightShards(): string[] {
  const dir = path.join(path.dirname(require.resolve('nsfwjs/models/mobilenet_v2')), '../../models/mobilenet_v2');
  const files = fs.readdirSync(dir).filter((f) => /^group\d+-shard\d+of\d+\.min\.js$/.test(f));
  // as many files as nsfwjs's registry loads, in its order (group, then shard)
  if (files.length !== MobileNetV2Model.weightBundles.length)
    throw new Error(`nsfwjs weight shards not found in ${dir}`);
  const order = (f: string) => (/^group(\d+)-shard(\d+)/.exec(f) ?? []).slice(1).map(Number);
  files.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
  return files.map((f) => require(path.join(dir, f)) as string);
}

/**
 * The model files of nsfwjs's own registry, its weights decoded by Buffer: nsfwjs's `load` decodes them byte by byte
 * in JS, which held the runtime's one thread for 45 s under a loaded Jest (a handler past its timeout meanwhile).
 */
const bundledModel: tf.io.IOHandler = {
  load: async () => {
    const json = (await MobileNetV2Model.modelJson()).default;
    const weights = Buffer.concat(weightShards().map((b64) => Buffer.from(b64, 'base64')));
    return {
      modelTopology: json.modelTopology,
      format: json.format,
      weightSpecs: (json.weightsManifest ?? []).flatMap((group) => group.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer,
    };
  },
};

/** The model, loaded once per process (a failed load is tried again on the next call). */
export function loadNsfwModel(): Promise<NSFWJS> {
  if (!loading) {
    loading = wasmBackend().then(async () => {
      const nsfw = new NSFWJS(bundledModel, { size: MODEL_INPUT_SIZE });
      await nsfw.load(); // with a warm-up prediction
      return nsfw;
    });
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/**
 * nsfwjs class probabilities of a JPEG/PNG. Throws ModerationInputError for non-JPEG/PNG or undecodable input
 * (InvalidImageFormatException) and oversized images (ImageTooLargeException).
 */
export async function classifyImage(image: Buffer): Promise<{ scores: NsfwScores }> {
  const [rgb, nsfw] = await Promise.all([decodeToRgb(image), loadNsfwModel()]);
  const values = tf.tidy(() => nsfw.infer(tf.tensor3d(rgb, [MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, 3], 'int32')));
  try {
    const probabilities = await values.data();
    return { scores: Object.fromEntries(NSFW_CLASSES.map((c, i) => [c, probabilities[i] ?? 0])) as NsfwScores };
  } finally {
    values.dispose();
  }
}
