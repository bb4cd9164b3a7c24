import type { EngineCheckResponse } from '../../domain/engine-request';
import type { GenerativeStyleSettings } from '../../domain/generative';
import { GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { ImageInputError } from '../../engine/errors';
import { normaliseImage } from '../../engine/output';
import { GenerativeError, invokeControlStructure } from './bedrock';
import { checkOnEngine } from './engine';
import { mediaKey, readObject, writeObject } from './media';
import { countMetric, logger } from './observability';
import { settings } from './settings';

export interface GenerativeOptions {
  key: string;
  inputSize: number;
  size: number;
  watermark: boolean;
  /** The seed asked of the model (bedrock.ts seedFor, or a new one for a retry). */
  seed: number;
}

/**
 * A generative render of one (photo, style): the stored photo shrunk to `inputSize` (never enlarged), sent to the
 * model, its answer brought to the engine's output rules (PNG, no metadata, long side `size` at most; a paid
 * one smaller is enlarged afterwards: lambdas/lib/upscale.ts; watermark for previews) and stored under `key`. Returns the stored image's size. A paid image is
 * delivered only once the quality gate has passed it (checkGenerative).
 */
export async function renderGenerative(
  hash: string,
  style: string,
  s: GenerativeStyleSettings,
  opts: GenerativeOptions,
): Promise<{ width: number; height: number }> {
  const photo = await readObject(mediaKey.upload(hash));
  if (!photo) throw new Error(`Photo ${hash} is not stored`);
  const input = await normaliseImage(photo, { maxSize: opts.inputSize });
  const result = await invokeControlStructure(s, input.png, opts.seed);
  let out: Awaited<ReturnType<typeof normaliseImage>>;
  try {
    out = await normaliseImage(result, { maxSize: opts.size, watermark: opts.watermark });
  } catch (err) {
    // Bytes that look like an image but do not decode: the model misbehaved, which may pass.
    if (err instanceof ImageInputError)
      throw new GenerativeError(
        `The model's image of ${style} is unreadable: ${err.message}`,
        GENERATIVE_ERRORS.unavailable,
      );
    throw err;
  }
  await writeObject(opts.key, out.png, 'image/png');
  return { width: out.width, height: out.height };
}

/**
 * The quality gate (engine/quality-gate.ts), faces included, on the paid image stored at `key` against its photo:
 * run by the engine (`check` operation), which holds the face models. Logged with its measures (each face's
 * likeness) and counted (QualityChecks, QualityFailures: the alarm's rate).
 */
export async function checkGenerative(hash: string, style: string, key: string): Promise<EngineCheckResponse> {
  const bucket = settings.mediaBucket;
  const verdict = await checkOnEngine({ input: { bucket, key: mediaKey.upload(hash) }, output: { bucket, key } });
  countMetric(METRICS.qualityChecks);
  const { faces, ...measures } = verdict;
  const fields = { image_hash: hash, style, ...measures, similarities: faces?.map((f) => f.similarity) };
  if (verdict.ok) logger.info('quality gate', fields);
  else {
    countMetric(METRICS.qualityFailures);
    logger.warn('quality gate', fields);
  }
  return verdict;
}
