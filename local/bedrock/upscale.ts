/**
 * The local stand-in for Stability AI's upscale services on Bedrock (domain/generative.ts UPSCALE_MODELS): the
 * documented request body is validated, and the image comes back four times larger, enlarged by sharp's lanczos3.
 * A stand-in: it adds no detail as the real service does; it plays the sizes, the body and the answer's shape.
 *   Fast Upscale : {"image": base64 PNG/JPEG/WEBP, "output_format"?: "jpeg"|"png"|"webp"}
 *   Conservative : the same plus "prompt" (required), "negative_prompt"?, "seed"?, "creativity"? (0.2..0.5)
 */
import sharp from 'sharp';
import { STABILITY_MAX_ASPECT, UPSCALE_MODELS, type UpscaleModel } from '../../domain/generative';
import { enumField, imageField, invalid, jsonBody } from './request-body';

const MAX_PROMPT = 10_000;
const MAX_SEED = 4_294_967_294;
/** The service enlarges x4 (Fast Upscale's documented factor; the stand-in uses it for Conservative too). */
export const UPSCALE_FACTOR = 4;

export interface UpscaleRequest {
  image: Buffer;
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
}

export async function parseUpscale(model: UpscaleModel, raw: Buffer): Promise<UpscaleRequest> {
  const limits = UPSCALE_MODELS[model];
  const body = jsonBody(
    raw,
    new Set(
      limits.prompt
        ? ['image', 'output_format', 'prompt', 'negative_prompt', 'seed', 'creativity']
        : ['image', 'output_format'],
    ),
  );
  const { image, prompt, negative_prompt, seed, creativity } = body;
  if (limits.prompt && (typeof prompt !== 'string' || prompt.length > MAX_PROMPT))
    throw invalid('Malformed input request: #: required key [prompt] not found or not a string');
  if (negative_prompt !== undefined && (typeof negative_prompt !== 'string' || negative_prompt.length > MAX_PROMPT))
    throw invalid(`Malformed input request: #/negative_prompt: must be a string of at most ${MAX_PROMPT} characters`);
  if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > MAX_SEED))
    throw invalid(`Malformed input request: #/seed: must be an integer between 0 and ${MAX_SEED}`);
  if (creativity !== undefined && (typeof creativity !== 'number' || creativity < 0.2 || creativity > 0.5))
    throw invalid('Malformed input request: #/creativity: must be a number between 0.2 and 0.5');
  const format = enumField(body, 'output_format', ['jpeg', 'png', 'webp'] as const) ?? 'png';
  const { bytes, width, height } = await imageField(image);
  const got = `(got ${width}x${height})`;
  if (Math.min(width, height) < limits.minSide)
    throw invalid(`Invalid image: every side must be at least ${limits.minSide} pixels ${got}`);
  if (Math.max(width, height) > limits.maxSide)
    throw invalid(`Invalid image: every side must be at most ${limits.maxSide} pixels ${got}`);
  if (width * height > limits.maxPixels) throw invalid(`Invalid image: at most ${limits.maxPixels} pixels ${got}`);
  if (Math.max(width, height) / Math.min(width, height) > STABILITY_MAX_ASPECT)
    throw invalid(`Invalid image: aspect ratio must be between 1:2.5 and 2.5:1 ${got}`);
  return { image: bytes, format, width, height };
}

/** The stand-in's answer: the image x4 by lanczos3, in the asked format. */
export async function upscaleImage(req: UpscaleRequest): Promise<Buffer> {
  return sharp(req.image)
    .resize(req.width * UPSCALE_FACTOR, req.height * UPSCALE_FACTOR, { kernel: 'lanczos3' })
    [req.format]()
    .toBuffer();
}
