import { createHash } from 'node:crypto';
import { InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { GenerativeStyleSettings, StylePreset } from '../../domain/generative';
import { sniffType } from '../../domain/image-format';
import { GENERATIVE_ERRORS, type GenerativeErrorName, METRICS } from '../../domain/wiring';
import { bedrock } from './aws';
import { countMetric, logger, timed } from './observability';
import { settings } from './settings';

/**
 * One call to Stability AI's Stable Image Control Structure on Amazon Bedrock (docs/bedrock.md): the photo's
 * structure kept, redrawn as the prompt says. Request and response are the model's documented InvokeModel body:
 *
 *   request  {"image": "<base64 PNG/JPEG>", "prompt": "...", "control_strength": 0..1, "negative_prompt"?: "...",
 *             "style_preset"?: one of STYLE_PRESETS (domain/generative.ts, where the source is cited),
 *             "seed": 0..4294967294 (0 = random), "output_format": "png"}
 *   response {"seeds": [n], "finish_reasons": [null | "Filter reason: ..." | "Inference error"], "images": ["<base64>"]}
 */

/**
 * Named for the order pipeline's Retry (throttled, unavailable; misconfigured at a long interval) and Catch (refused:
 * the item fails and is refunded).
 */
export class GenerativeError extends Error {
  constructor(
    message: string,
    override readonly name: GenerativeErrorName,
  ) {
    super(message);
  }
}

/** The documented seed range; 0 asks the model for a random one. */
export const MAX_SEED = 4_294_967_294;
/** Largest decoded image accepted back from the model (a 1 MP PNG is a few MB). */
const MAX_RESULT_BYTES = 25 * 1024 * 1024;

export interface ControlStructureBody {
  image: string;
  prompt: string;
  control_strength: number;
  negative_prompt?: string;
  style_preset?: StylePreset;
  seed: number;
  output_format: 'png';
}

/** Seed policy: 'per-photo' gives the preview and the paid render of one (photo, style) the same starting noise. */
export function seedFor(s: GenerativeStyleSettings, hash: string, style: string, attempt = 0): number {
  if (s.seed === 'random') return 0;
  // A retry after the quality gate failed (`attempt` 1, 2) asks for other noise, the same on every run of it.
  const name = attempt ? `${hash}:${style}:${attempt}` : `${hash}:${style}`;
  return (createHash('sha256').update(name).digest().readUInt32BE(0) % MAX_SEED) + 1;
}

export function controlStructureBody(s: GenerativeStyleSettings, image: Buffer, seed: number): ControlStructureBody {
  return {
    image: image.toString('base64'),
    prompt: s.prompt,
    control_strength: s.controlStrength,
    ...(s.negativePrompt ? { negative_prompt: s.negativePrompt } : {}),
    ...(s.stylePreset ? { style_preset: s.stylePreset } : {}),
    seed,
    output_format: 'png',
  };
}

const THROTTLED = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'ServiceUnavailableException',
  'TooManyRequestsException',
]);
const UNAVAILABLE = new Set(['InternalServerException', 'ModelTimeoutException', 'ModelErrorException']);
/** The account or the configuration, never the photo: no access, no subscription, no such model, not deployed. */
const MISCONFIGURED = new Set([
  'AccessDeniedException',
  'ResourceNotFoundException',
  'ModelNotReadyException',
  'UnrecognizedClientException',
]);
/**
 * ValidationExceptions that are about how the model is called, not about this input: an on-demand call of a model
 * offered only through inference profiles ("... with on-demand throughput isn't supported. Retry your request with
 * the ID or ARN of an inference profile ..."), an unknown model identifier, or missing access or subscription.
 */
const CONFIGURATION_VALIDATION =
  /on-demand throughput|inference profile|model identifier is invalid|don't have access|not authorized|subscri/i;

/** What an error of InvokeModel means for the item and the photo (docs/bedrock.md, "Errors"). */
export function classifyModelError(name: string, message: string): GenerativeErrorName {
  if (THROTTLED.has(name)) return GENERATIVE_ERRORS.throttled;
  if (UNAVAILABLE.has(name)) return GENERATIVE_ERRORS.unavailable;
  if (MISCONFIGURED.has(name)) return GENERATIVE_ERRORS.misconfigured;
  if (name === 'ValidationException')
    return CONFIGURATION_VALIDATION.test(message) ? GENERATIVE_ERRORS.misconfigured : GENERATIVE_ERRORS.refused;
  return GENERATIVE_ERRORS.unavailable; // network and unknown errors may pass
}

/** Calls the model and returns the image bytes it made (PNG or JPEG, checked), or throws a GenerativeError. */
export function invokeControlStructure(s: GenerativeStyleSettings, image: Buffer, seed: number): Promise<Buffer> {
  return invokeImageModel(s.modelId, controlStructureBody(s, image, seed));
}

/**
 * One InvokeModel call of a Stability AI image model (any of its image services answers {seeds, finish_reasons,
 * images}): the image bytes, or a GenerativeError named by classifyModelError.
 */
export async function invokeImageModel(modelId: string, body: object): Promise<Buffer> {
  let raw: Uint8Array;
  try {
    const res = await timed(METRICS.modelLatency, METRICS.modelErrors, () =>
      bedrock(settings.bedrockRegion).send(
        new InvokeModelCommand({
          modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: new TextEncoder().encode(JSON.stringify(body)),
        }),
      ),
    );
    raw = res.body;
  } catch (err) {
    const { name, message } = err as Error;
    const kind = classifyModelError(name, message);
    if (kind === GENERATIVE_ERRORS.misconfigured) {
      // The operator must act (docs/bedrock.md): alarmed at once; the item waits and the photo is not blamed.
      countMetric(METRICS.modelMisconfigured);
      logger.error('generative model misconfigured', { model_id: modelId, error_name: name, detail: message });
    }
    throw new GenerativeError(`${name}: ${message}`, kind);
  }
  return readResult(raw);
}

/** Validates the documented response shape; a filtered result is a refusal, an inference error may pass. */
export function readResult(raw: Uint8Array): Buffer {
  let body: { finish_reasons?: unknown; images?: unknown };
  try {
    body = JSON.parse(new TextDecoder().decode(raw)) as typeof body;
  } catch {
    throw new GenerativeError('The model answered with something other than JSON', GENERATIVE_ERRORS.unavailable);
  }
  const reason = Array.isArray(body.finish_reasons) ? body.finish_reasons[0] : undefined;
  if (typeof reason === 'string') {
    if (reason.startsWith('Filter reason'))
      throw new GenerativeError(`Content filtered by the model (${reason})`, GENERATIVE_ERRORS.refused);
    throw new GenerativeError(`The model did not finish (${reason})`, GENERATIVE_ERRORS.unavailable);
  }
  const b64 = Array.isArray(body.images) ? body.images[0] : undefined;
  if (typeof b64 !== 'string' || b64.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
    throw new GenerativeError('The model answered without a base64 image', GENERATIVE_ERRORS.unavailable);
  }
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > MAX_RESULT_BYTES)
    throw new GenerativeError(`The model's image is too large (${bytes.length} bytes)`, GENERATIVE_ERRORS.unavailable);
  if (!sniffType(bytes))
    throw new GenerativeError("The model's image is neither PNG nor JPEG", GENERATIVE_ERRORS.unavailable);
  return bytes;
}
