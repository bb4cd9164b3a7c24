import type { GenerativeStyleSettings } from '../../domain/generative';
import { GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { ImageInputError } from '../../engine/errors';
import { normaliseImage } from '../../engine/output';
import { checkQuality, type QualityFailure } from '../../engine/quality-gate';
import { GenerativeError, invokeControlStructure } from './bedrock';
import { mediaKey, readObject, writeObject } from './media';
import { countMetric, logger } from './observability';

export interface GenerativeOptions {
  key: string;
  inputSize: number;
  size: number;
  watermark: boolean;
  /** The seed asked of the model (bedrock.ts seedFor, or a new one for a retry). */
  seed: number;
  /** Paid images: a smaller model image is enlarged (sharp lanczos3, as the engine's paid renders) to `size`. */
  enlarge?: boolean;
  /** Paid images: stored only if the quality gate (engine/quality-gate.ts) passes them. */
  gate?: boolean;
}

/**
 * A generative render of one (photo, style): the stored photo shrunk to `inputSize` (never enlarged), sent to the
 * model, its answer checked by the quality gate if asked, brought to the engine's output rules (PNG, no metadata,
 * long side `size` at most, or exactly when `enlarge`; watermark for previews) and stored under `key`. Returns the
 * stored image's size, or the gate's failure (nothing stored).
 */
export async function renderGenerative(
  hash: string,
  style: string,
  s: GenerativeStyleSettings,
  opts: GenerativeOptions,
): Promise<{ stored: true; width: number; height: number } | { stored: false; quality: QualityFailure }> {
  const photo = await readObject(mediaKey.upload(hash));
  if (!photo) throw new Error(`Photo ${hash} is not stored`);
  const input = await normaliseImage(photo, { maxSize: opts.inputSize });
  const result = await invokeControlStructure(s, input.png, opts.seed);
  let out: Awaited<ReturnType<typeof normaliseImage>>;
  try {
    out = await normaliseImage(result, { maxSize: opts.size, watermark: opts.watermark, enlarge: opts.enlarge });
  } catch (err) {
    // Bytes that look like an image but do not decode: the model misbehaved, which may pass.
    if (err instanceof ImageInputError)
      throw new GenerativeError(`The model's image is unreadable: ${err.message}`, GENERATIVE_ERRORS.unavailable);
    throw err;
  }
  if (opts.gate) {
    const quality = await checkQuality(input.png, result);
    countMetric(METRICS.qualityChecks);
    logger.info('quality gate', { image_hash: hash, style, seed: opts.seed, ...quality });
    if (!quality.ok) {
      countMetric(METRICS.qualityFailures);
      return { stored: false, quality };
    }
  }
  await writeObject(opts.key, out.png, 'image/png');
  return { stored: true, width: out.width, height: out.height };
}
