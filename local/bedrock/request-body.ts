import sharp from 'sharp';
import { sniffFormat } from '../../engine/image-io';
import { BedrockError } from './gate';

/** A ValidationException with the model's message, as Bedrock answers a body its schema refuses. */
export const invalid = (message: string) => new BedrockError('ValidationException', message);

/**
 * A model request's body as Bedrock validates it before the model runs: a JSON object whose keys are all among
 * `keys`, else a ValidationException in the words AWS uses. One definition for every model the stand-in answers.
 */
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
 * An optional enum-valued key (`style_preset`, `output_format`): absent, or one of `values`. Bedrock checks a
 * model's body against its JSON schema and reports an enum miss with the schema validator's words,
 * "#/<key>: <value> is not a valid enum value", inside its "Malformed input request" ValidationException.
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

/** The request's `image`: base64 of a PNG, JPEG or WEBP that decodes, with its size (each model then checks its limits). */
export async function imageField(image: unknown): Promise<{ bytes: Buffer; width: number; height: number }> {
  if (typeof image !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(image) || image.length % 4 !== 0)
    throw invalid('Malformed input request: #/image: required, valid base64');
  const bytes = Buffer.from(image, 'base64');
  const isWebp =
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
  if (!sniffFormat(bytes) && !isWebp) throw invalid('Invalid image: the image must be a PNG, JPEG or WEBP');
  try {
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    return { bytes, width, height };
  } catch {
    throw invalid('Invalid image: the image could not be decoded');
  }
}
