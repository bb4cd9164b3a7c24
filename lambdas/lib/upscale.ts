import type { GenerativeStyleSettings } from '../../domain/generative';
import { STABILITY_MAX_ASPECT, UPSCALE_MODELS, type UpscaleModel, upscaleModelOf } from '../../domain/generative';
import { PAID_LONG_SIDE } from '../../domain/image-format';
import { GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { normaliseImage } from '../../engine/output';
import { GenerativeError, invokeImageModel } from './bedrock';
import { CapacityBusyError, withModelRequest } from './capacity';
import { readObject, writeObject } from './media';
import { countMetric, logger } from './observability';
import { settings } from './settings';

/**
 * Enlarging a paid generative image to the paid size (docs/bedrock.md "Upscaling"): by the Bedrock upscale service
 * the operator set (`bedrockUpscaleModelId`), else, or when that service cannot serve (misconfigured, refused,
 * unavailable: logged and counted as UpscaleFallbacks), by lanczos3 as the engine's paid renders, so a paid image is
 * never lost to the optional upscaler. A throttled or busy upscaler is waited out like any model call; the model's
 * image stays stored meanwhile, so the style model is never asked again for it.
 */

export interface UpscaleBody {
  image: string;
  output_format: 'png';
  prompt?: string;
  negative_prompt?: string;
}

/** The long side to shrink an image to so the service accepts it (never more than it is); null: it cannot take it. */
export function upscaleInputLongSide(model: UpscaleModel, width: number, height: number): number | null {
  const limits = UPSCALE_MODELS[model];
  if (Math.max(width, height) / Math.min(width, height) > STABILITY_MAX_ASPECT) return null;
  const scale = Math.min(1, limits.maxSide / Math.max(width, height), Math.sqrt(limits.maxPixels / (width * height)));
  let long = Math.floor(Math.max(width, height) * scale);
  // The resize rounds the short side: step down until the rounded size fits too.
  const shortOf = (l: number) => Math.round((Math.min(width, height) * l) / Math.max(width, height));
  while (long * shortOf(long) > limits.maxPixels) long--;
  return shortOf(long) >= limits.minSide ? long : null;
}

/** The documented body: the image, PNG out; Conservative also needs the style's prompt (what the image shows). */
export function upscaleBody(model: UpscaleModel, image: Buffer, s: GenerativeStyleSettings): UpscaleBody {
  return {
    image: image.toString('base64'),
    output_format: 'png',
    ...(UPSCALE_MODELS[model].prompt
      ? { prompt: s.prompt, ...(s.negativePrompt ? { negative_prompt: s.negativePrompt } : {}) }
      : {}),
  };
}

/** The service's image of `png` (shrunk first to what it accepts), or null when its limits rule the image out. */
async function upscaleOnBedrock(
  modelId: string,
  png: Buffer,
  width: number,
  height: number,
  s: GenerativeStyleSettings,
) {
  const model = upscaleModelOf(modelId);
  if (!model) throw new Error(`bedrockUpscaleModelId ${modelId} is not an upscale service`);
  const long = upscaleInputLongSide(model, width, height);
  if (long === null) return null;
  const input = long < Math.max(width, height) ? (await normaliseImage(png, { maxSize: long })).png : png;
  const run = await withModelRequest(modelId, 'paid', () => invokeImageModel(modelId, upscaleBody(model, input, s)));
  if (!run.admitted) throw new CapacityBusyError(`No ${modelId} capacity to upscale now`);
  return run.value;
}

/**
 * Brings the image stored at `key` to exactly the paid long side when it is smaller (PNG, stored back). Throws
 * CapacityBusyError or a throttled GenerativeError (the item waits, the image stays) only.
 */
export async function enlargeStored(key: string, style: string, s: GenerativeStyleSettings): Promise<void> {
  const stored = await readObject(key);
  if (!stored) throw new Error(`The model's image ${key} is not stored`);
  const current = await normaliseImage(stored, { maxSize: PAID_LONG_SIDE });
  if (Math.max(current.width, current.height) >= PAID_LONG_SIDE) return;
  let source = current.png;
  const modelId = settings.bedrockUpscaleModelId;
  if (modelId) {
    try {
      const upscaled = await upscaleOnBedrock(modelId, current.png, current.width, current.height, s);
      if (upscaled) source = upscaled;
      else fallBack(modelId, style, 'outside the service input limits');
    } catch (err) {
      if (!(err instanceof GenerativeError) || err.name === GENERATIVE_ERRORS.throttled) throw err;
      fallBack(modelId, style, `${err.name}: ${err.message}`);
    }
  }
  // The service's image (larger) comes down, lanczos3's comes up: exactly the paid long side either way.
  const out = await normaliseImage(source, { maxSize: PAID_LONG_SIDE, enlarge: true });
  await writeObject(key, out.png, 'image/png');
}

function fallBack(modelId: string, style: string, reason: string) {
  countMetric(METRICS.upscaleFallbacks);
  logger.warn('upscale service not used: lanczos3 enlarges', { model_id: modelId, style, reason });
}
