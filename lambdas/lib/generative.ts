import type { GenerativeStyleSettings } from '../../domain/generative';
import { GENERATIVE_ERRORS } from '../../domain/wiring';
import { ImageInputError } from '../../engine/errors';
import { normaliseImage } from '../../engine/output';
import { GenerativeError, invokeControlStructure, seedFor } from './bedrock';
import { mediaKey, readObject, writeObject } from './media';

/**
 * A generative render of one (photo, style): the stored photo shrunk to `inputSize` (never enlarged), sent to the
 * model, its answer brought to the engine's output rules (PNG, no metadata, long side ≤ `size`, watermark for
 * previews) and stored under `key`. Returns the stored image's size.
 */
export async function renderGenerative(
  hash: string,
  style: string,
  s: GenerativeStyleSettings,
  opts: { key: string; inputSize: number; size: number; watermark: boolean },
) {
  const photo = await readObject(mediaKey.upload(hash));
  if (!photo) throw new Error(`Photo ${hash} is not stored`);
  const input = await normaliseImage(photo, { maxSize: opts.inputSize });
  const result = await invokeControlStructure(s, input.png, seedFor(s, hash, style));
  let out: Awaited<ReturnType<typeof normaliseImage>>;
  try {
    out = await normaliseImage(result, { maxSize: opts.size, watermark: opts.watermark });
  } catch (err) {
    // Bytes that look like an image but do not decode: the model misbehaved, which may pass.
    if (err instanceof ImageInputError)
      throw new GenerativeError(`The model's image is unreadable: ${err.message}`, GENERATIVE_ERRORS.unavailable);
    throw err;
  }
  await writeObject(opts.key, out.png, 'image/png');
  return { width: out.width, height: out.height };
}
