/**
 * A Stability AI model's request body as Bedrock validates it before the model runs, in the words AWS answers with
 * (a ValidationException). One definition of each documented field and limit for every model the stand-in answers.
 */
import sharp from 'sharp';
import { STABILITY_MAX_ASPECT } from '../../domain/generative';
import { AwsError } from '../serve';

/** Documented limits of the Stability AI image services on Bedrock. */
const MAX_PROMPT = 10_000;
const MAX_SEED = 4_294_967_294;
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A ValidationException with the model's message, as Bedrock answers a body its schema refuses. */
export const invalid = (message: string) => new AwsError('ValidationException', message);

/** The body: a JSON object whose keys are all among `keys`. */
export function jsonBody(raw: Buffer, keys: ReadonlySet<string>): Record<string, unknown> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw invalid('Malformed input request: the body is not JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalid('Malformed input request: the body must be a JSON object');
  for (const k of Object.keys(body))
    if (!keys.has(k)) throw invalid(`Malformed input request: #: extraneous key [${k}] is not permitted`);
  return body;
}

/**
 * An optional enum-valued key (`style_preset`, `output_format`): absent, or one of `values`. Bedrock reports an enum
 * miss with the schema validator's words, "#/<key>: <value> is not a valid enum value".
 */
export function enumField<T extends string>(
  body: Record<string, unknown>,
  key: string,
  values: readonly T[],
): T | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !values.includes(v as T))
    throw invalid(
      `Malformed input request: #/${key}: ${typeof v === 'string' ? v : JSON.stringify(v)} is not a valid enum value`,
    );
  return v as T;
}

/** `prompt` (required when `required`) and the optional `negative_prompt`, each at most MAX_PROMPT characters. */
export function promptFields(body: Record<string, unknown>, required: boolean): void {
  const { prompt, negative_prompt } = body;
  if (required && typeof prompt !== 'string')
    throw invalid('Malformed input request: #: required key [prompt] not found or not a string');
  if (typeof prompt === 'string' && prompt.length > MAX_PROMPT)
    throw invalid(`Malformed input request: #/prompt: expected maxLength: ${MAX_PROMPT}, actual: ${prompt.length}`);
  if (negative_prompt !== undefined && (typeof negative_prompt !== 'string' || negative_prompt.length > MAX_PROMPT))
    throw invalid(`Malformed input request: #/negative_prompt: must be a string of at most ${MAX_PROMPT} characters`);
}

/** The optional `seed` (0 or absent: the model picks one). */
export function seedField(body: Record<string, unknown>): number {
  const { seed } = body;
  if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > MAX_SEED))
    throw invalid(`Malformed input request: #/seed: must be an integer between 0 and ${MAX_SEED}`);
  return (seed as number | undefined) || Math.floor(Math.random() * MAX_SEED) + 1;
}

/**
 * The request's `image`: base64 of a PNG, JPEG or WEBP that decodes, within the model's sides and pixels and the
 * services' aspect ratio (1:2.5 to 2.5:1).
 */
export async function imageField(
  image: unknown,
  limits: { minSide: number; maxSide?: number; maxPixels: number },
): Promise<{ bytes: Buffer; width: number; height: number }> {
  if (typeof image !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(image) || image.length % 4 !== 0)
    throw invalid('Malformed input request: #/image: required, valid base64');
  const bytes = Buffer.from(image, 'base64');
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  if (!meta || !['png', 'jpeg', 'webp'].includes(meta.format ?? ''))
    throw invalid('Invalid image: the image must be a PNG, JPEG or WEBP');
  const { width = 0, height = 0 } = meta;
  const got = `(got ${width}x${height})`;
  if (Math.min(width, height) < limits.minSide)
    throw invalid(`Invalid image: every side must be at least ${limits.minSide} pixels ${got}`);
  if (limits.maxSide && Math.max(width, height) > limits.maxSide)
    throw invalid(`Invalid image: every side must be at most ${limits.maxSide} pixels ${got}`);
  if (width * height > limits.maxPixels) throw invalid(`Invalid image: at most ${limits.maxPixels} pixels ${got}`);
  if (Math.max(width, height) / Math.min(width, height) > STABILITY_MAX_ASPECT)
    throw invalid(`Invalid image: aspect ratio must be between 1:2.5 and 2.5:1 ${got}`);
  return { bytes, width, height };
}
