/**
 * Local content-moderation model for the Rekognition stand-in (see ./server.ts).
 *
 * - Model: nsfwjs's bundled MobileNetV2 (224×224 input, 5 softmax classes). The model topology and the
 *   quantised weights ship inside node_modules/nsfwjs/dist/models/mobilenet_v2 as UMD ".min.js" bundles
 *   (model JSON / base64 weight string); we read them from disk through a custom tf.io.IOHandler, so
 *   nothing is fetched over the network.
 * - Backend: @tensorflow/tfjs-backend-wasm (single-threaded SIMD), wasm binaries loaded from
 *   node_modules via setWasmPaths.
 * - Loaded lazily, once per process; concurrent callers share the same load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { NSFWJS } from 'nsfwjs/core';
import sharp from 'sharp';

/** nsfwjs output order (node_modules/nsfwjs/dist/cjs/nsfw_classes.js). */
export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
/** Class probabilities in 0..1 (softmax, sums to ~1). */
export type NsfwScores = Record<NsfwClass, number>;

/** Same shape as Rekognition's ModerationLabel. */
export interface ModerationLabel {
  Confidence: number;
  Name: string;
  /** "" for top-level (TaxonomyLevel 1) labels, as Rekognition does. */
  ParentName: string;
  TaxonomyLevel: number;
}

/** Same shape as Rekognition's ContentType (moderation model 7.0: "Animated" | "Illustrated"). */
export interface ContentTypeLabel {
  Confidence: number;
  Name: string;
}

export const MODERATION_MODEL_VERSION = 'local-nsfwjs-mobilenetv2';
/** MobileNetV2 input edge, px. */
export const MODEL_INPUT_SIZE = 224;
/** Rekognition's default MinConfidence. */
export const DEFAULT_MIN_CONFIDENCE = 50;
/** Decoded-pixel cap (sharp limitInputPixels); larger images → ImageTooLargeException. 100 MP. */
export const MAX_INPUT_PIXELS = 100_000_000;

// ---------------------------------------------------------------------------------------------
// Mapping nsfwjs classes → Rekognition moderation taxonomy, model version 7 (3 levels).
//
//   nsfwjs class                    Rekognition v7 label(s) (TaxonomyLevel, ParentName)    Confidence
//   ------------------------------  -----------------------------------------------------  ----------------
//   Porn + Hentai                   'Explicit' (1, "")                                     P(Porn)+P(Hentai)
//   Porn   (photographic porn)      'Explicit Nudity' (2, 'Explicit')                      P(Porn)
//   Hentai (drawn porn)             'Explicit Sexual Activity' (2, 'Explicit')             P(Hentai)
//   Sexy                            'Swimwear or Underwear' (1, "")                        P(Sexy)
//   Drawing, Neutral                no moderation label
//   Drawing + Hentai                ContentTypes 'Illustrated'                             P(Drawing)+P(Hentai)
//
// nsfwjs's Sexy class is "suggestive, not pornography": swimwear, underwear, sportswear, bare chests. Rekognition
// files all of that under 'Swimwear or Underwear' or under allowed L3s of 'Non-Explicit Nudity' (bare back, male
// nipple); the model cannot tell those apart from the real nudity L3s, so it must not claim nudity at any
// confidence (it once refused a footballer in shorts at 89 %). Its L2 children (Female/Male ...) need a gender
// the model does not give, so only the L1 is returned.
//
// The classes are mutually exclusive softmax outputs, so a parent's confidence (sum of its children's
// classes) is always ≥ each child's, and a child passing MinConfidence implies its parent passes too.
// Level-3 labels (e.g. 'Exposed Female Nipple') and the other v7 categories ('Violence',
// 'Visually Disturbing', 'Drugs & Tobacco', 'Alcohol', 'Rude Gestures', 'Gambling', 'Hate Symbols')
// cannot be derived from this model and are never returned.
// (Rekognition v6 names for comparison: 'Explicit Nudity' and 'Suggestive' were top-level.)
// ---------------------------------------------------------------------------------------------

const L1_EXPLICIT = 'Explicit';
const L1_SWIMWEAR = 'Swimwear or Underwear';

function pct(p: number): number {
  if (!Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, p * 100));
}

/**
 * Pure mapping from nsfwjs class probabilities (0..1) to Rekognition v7 moderation labels
 * (Confidence in percent), keeping labels with Confidence ≥ minConfidence. Sorted by confidence
 * (desc), parents before children on ties.
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

  add(L1_EXPLICIT, '', 1, scores.Porn + scores.Hentai);
  add('Explicit Nudity', L1_EXPLICIT, 2, scores.Porn);
  add('Explicit Sexual Activity', L1_EXPLICIT, 2, scores.Hentai);

  add(L1_SWIMWEAR, '', 1, scores.Sexy);

  return out.sort((a, b) => b.Confidence - a.Confidence || a.TaxonomyLevel - b.TaxonomyLevel);
}

/** Pure mapping to Rekognition's ContentTypes (only 'Illustrated' can be derived from nsfwjs). */
export function mapScoresToContentTypes(
  scores: NsfwScores,
  minConfidence: number = DEFAULT_MIN_CONFIDENCE,
): ContentTypeLabel[] {
  const Confidence = pct(scores.Drawing + scores.Hentai);
  return Confidence >= minConfidence && Confidence > 0 ? [{ Confidence, Name: 'Illustrated' }] : [];
}

// ---------------------------------------------------------------------------------------------
// Input validation / decoding
// ---------------------------------------------------------------------------------------------

export type ImageFormat = 'jpeg' | 'png';

/** Rekognition accepts JPEG and PNG only; sniff the magic bytes. */
export function detectImageFormat(buf: Uint8Array): ImageFormat | undefined {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (
    buf.length >= 8 &&
    buf[0] === 0x89 &&
    buf[1] === 0x50 &&
    buf[2] === 0x4e &&
    buf[3] === 0x47 &&
    buf[4] === 0x0d &&
    buf[5] === 0x0a &&
    buf[6] === 0x1a &&
    buf[7] === 0x0a
  ) {
    return 'png';
  }
  return undefined;
}

/** Raised for bad input; `code` is the Rekognition exception name the server should answer with. */
export class ModerationInputError extends Error {
  constructor(
    readonly code: 'InvalidImageFormatException' | 'ImageTooLargeException',
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

/**
 * Decode (EXIF-rotate, flatten alpha on white, sRGB) and resize to size×size RGB bytes. The resize is
 * part of the same sharp pipeline, so JPEG shrink-on-load decodes big photos at ≤1/8 scale.
 * 'fill' (aspect-ratio stretch) matches how the nsfwjs model was trained/used (plain resize to 224²).
 */
export async function decodeToRgb(image: Buffer, size: number = MODEL_INPUT_SIZE): Promise<Uint8Array> {
  if (!detectImageFormat(image)) {
    throw new ModerationInputError('InvalidImageFormatException', 'Request has invalid image format');
  }
  try {
    const { data, info } = await sharp(image, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(size, size, { fit: 'fill', fastShrinkOnLoad: true })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.width !== size || info.height !== size || info.channels !== 3) {
      throw new Error(`unexpected decode result ${info.width}x${info.height}x${info.channels}`);
    }
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(msg)) {
      throw new ModerationInputError('ImageTooLargeException', 'Image size is too large.');
    }
    throw new ModerationInputError('InvalidImageFormatException', 'Request has invalid image format');
  }
}

// ---------------------------------------------------------------------------------------------
// Model loading (lazy, once)
// ---------------------------------------------------------------------------------------------

export interface NsfwModelInfo {
  backend: string;
  inputSize: number;
  /** Wall time of the one-off load (wasm backend init + weights + warm-up predict), ms. */
  loadMs: number;
}

interface LoadedModel {
  nsfw: NSFWJS;
  info: NsfwModelInfo;
}

let loading: Promise<LoadedModel> | undefined;

function nsfwjsModelDir(): string {
  // require.resolve('nsfwjs') → <pkg>/dist/cjs/index.js; the bundled models live in <pkg>/dist/models.
  return path.resolve(path.dirname(require.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2');
}

/** Loads a nsfwjs "model.min.js" / "groupN-shardXofY.min.js" UMD bundle (module.exports = value). */
function requireBundle<T>(file: string): T {
  if (!fs.existsSync(file)) throw new Error(`nsfwjs model file missing: ${file}`);
  const mod = require(file) as T | { default: T };
  return mod && typeof mod === 'object' && 'default' in mod ? (mod as { default: T }).default : (mod as T);
}

/** tf.io.IOHandler reading nsfwjs's bundled model from disk (no fetch). */
export function bundledModelIOHandler(modelDir: string = nsfwjsModelDir()): tf.io.IOHandler {
  return {
    load: async (): Promise<tf.io.ModelArtifacts> => {
      const modelJson = requireBundle<tf.io.ModelJSON>(path.join(modelDir, 'model.min.js'));
      const weightSpecs: tf.io.WeightsManifestEntry[] = [];
      const chunks: Buffer[] = [];
      for (const group of modelJson.weightsManifest ?? []) {
        for (const p of group.paths) {
          const b64 = requireBundle<string>(path.join(modelDir, `${p}.min.js`));
          if (typeof b64 !== 'string') throw new Error(`nsfwjs weight shard ${p} is not a base64 string`);
          chunks.push(Buffer.from(b64, 'base64'));
        }
        weightSpecs.push(...group.weights);
      }
      const all = Buffer.concat(chunks);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
      return {
        modelTopology: modelJson.modelTopology,
        format: modelJson.format,
        generatedBy: modelJson.generatedBy,
        convertedBy: modelJson.convertedBy,
        weightSpecs,
        weightData,
      };
    },
  };
}

async function initWasmBackend(): Promise<void> {
  if (tf.getBackend() === 'wasm') return;
  // <pkg>/dist/tf-backend-wasm.node.js → the .wasm files sit next to it.
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  setWasmPaths(`${wasmDir}${path.sep}`);
  // Single-threaded: the threaded build spawns pthread workers; this box's cores are shared.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  const ok = await tf.setBackend('wasm');
  if (!ok) throw new Error('failed to initialise the @tensorflow/tfjs-backend-wasm backend');
  await tf.ready();
}

async function doLoad(): Promise<LoadedModel> {
  const t0 = performance.now();
  await initWasmBackend();
  const nsfw = new NSFWJS(bundledModelIOHandler(), { size: MODEL_INPUT_SIZE });
  await nsfw.load(); // includes a warm-up predict on zeros
  const info: NsfwModelInfo = {
    backend: tf.getBackend(),
    inputSize: MODEL_INPUT_SIZE,
    loadMs: performance.now() - t0,
  };
  return { nsfw, info };
}

function getModel(): Promise<LoadedModel> {
  if (!loading) {
    loading = doLoad();
    loading.catch(() => {
      loading = undefined; // allow a retry after a failed load
    });
  }
  return loading;
}

/** Loads the model if needed (once per process) and returns its info. */
export async function loadNsfwModel(): Promise<NsfwModelInfo> {
  return (await getModel()).info;
}

// ---------------------------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------------------------

export interface NsfwClassification {
  scores: NsfwScores;
  format: ImageFormat;
  /** decode+resize (sharp), inference (tfjs wasm), total; ms. */
  timings: { decodeMs: number; inferMs: number; totalMs: number };
}

/** Runs the 5-class model on 224×224 RGB bytes. */
export async function classifyRgb(rgb: Uint8Array, size: number = MODEL_INPUT_SIZE): Promise<NsfwScores> {
  const { nsfw } = await getModel();
  const input = tf.tensor3d(rgb, [size, size, 3], 'int32');
  try {
    const out = nsfw.infer(input);
    try {
      const values = await out.data();
      const scores = {} as NsfwScores;
      NSFW_CLASSES.forEach((c, i) => {
        scores[c] = values[i] ?? 0;
      });
      return scores;
    } finally {
      out.dispose();
    }
  } finally {
    input.dispose();
  }
}

/**
 * Decode a JPEG/PNG and return nsfwjs class probabilities. Throws ModerationInputError for
 * non-JPEG/PNG or undecodable input (InvalidImageFormatException) and oversized images
 * (ImageTooLargeException).
 */
export async function classifyImage(image: Buffer): Promise<NsfwClassification> {
  const format = detectImageFormat(image);
  if (!format) throw new ModerationInputError('InvalidImageFormatException', 'Request has invalid image format');
  const modelReady = getModel(); // start loading concurrently with the decode
  const t0 = performance.now();
  const rgb = await decodeToRgb(image);
  const t1 = performance.now();
  await modelReady;
  const t2 = performance.now();
  const scores = await classifyRgb(rgb);
  const t3 = performance.now();
  return { scores, format, timings: { decodeMs: t1 - t0, inferMs: t3 - t2, totalMs: t3 - t0 - (t2 - t1) } };
}

/** Full moderation of one image, Rekognition-shaped. */
export async function moderateImage(
  image: Buffer,
  minConfidence: number = DEFAULT_MIN_CONFIDENCE,
): Promise<{
  ModerationLabels: ModerationLabel[];
  ContentTypes: ContentTypeLabel[];
  ModerationModelVersion: string;
  classification: NsfwClassification;
}> {
  const classification = await classifyImage(image);
  return {
    ModerationLabels: mapScoresToModerationLabels(classification.scores, minConfidence),
    ContentTypes: mapScoresToContentTypes(classification.scores, minConfidence),
    ModerationModelVersion: MODERATION_MODEL_VERSION,
    classification,
  };
}
