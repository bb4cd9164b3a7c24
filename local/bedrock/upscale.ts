/**
 * The local stand-in for Stability AI's upscale services on Bedrock (domain/generative.ts UPSCALE_MODELS): the
 * documented request body is validated, and the image comes back four times larger, enlarged by sharp's lanczos3.
 * A stand-in: it adds no detail as the real service does; it plays the sizes, the body and the answer's shape.
 *   Fast Upscale : {"image": base64 PNG/JPEG/WEBP, "output_format"?: "jpeg"|"png"|"webp"}
 *   Conservative : the same plus "prompt" (required), "negative_prompt"?, "seed"?, "creativity"? (0.2..0.5)
 */
import sharp from 'sharp';
import { UPSCALE_MODELS, type UpscaleModel } from '../../domain/generative';
import { enumField, imageField, invalid, jsonBody, OUTPUT_FORMATS, promptFields, seedField } from './request-body';

/** The service enlarges x4 (Fast Upscale's documented factor; the stand-in uses it for Conservative too). */
const UPSCALE_FACTOR = 4;
const KEYS = new Set(['image', 'output_format']);
const PROMPTED_KEYS = new Set([...KEYS, 'prompt', 'negative_prompt', 'seed', 'creativity']);

/** Validates the body as the service does; answers the image x4 by lanczos3, in the asked format, and its size. */
export async function upscale(
  model: UpscaleModel,
  raw: Buffer,
): Promise<{ image: Buffer; width: number; height: number }> {
  const limits = UPSCALE_MODELS[model];
  const body = jsonBody(raw, limits.prompt ? PROMPTED_KEYS : KEYS);
  promptFields(body, limits.prompt);
  seedField(body);
  const { creativity } = body;
  if (creativity !== undefined && (typeof creativity !== 'number' || creativity < 0.2 || creativity > 0.5))
    throw invalid('Malformed input request: #/creativity: must be a number between 0.2 and 0.5');
  const format = enumField(body, 'output_format', OUTPUT_FORMATS) ?? 'png';
  const { bytes, width, height } = await imageField(body.image, limits);
  const image = await sharp(bytes)
    .resize(width * UPSCALE_FACTOR, height * UPSCALE_FACTOR, { kernel: 'lanczos3' })
    [format]()
    .toBuffer();
  return { image, width, height };
}
