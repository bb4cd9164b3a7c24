/**
 * The cartoon engine's request and response (engine/server.ts serves them; lambdas/lib/engine.ts sends them):
 * written once as zod schemas, so the handler checks what it sends and the server parses what it gets with the
 * same rules. S3 in, S3 out; small images may come inline as base64 (`input.data`, a single render only).
 */
import { z } from 'zod';
import { isStyleId, STYLE_IDS } from './styles';

/** Largest batch: one decode, every style of the catalogue and then some. */
export const MAX_ENGINE_OUTPUTS = 32;

const s3Location = z.object({
  bucket: z.string().min(1, 'must name a bucket'),
  key: z.string().min(1, 'must name a key'),
});
export type S3Location = z.infer<typeof s3Location>;

const styleId = z
  .string({ error: 'is required' })
  .refine(isStyleId, { error: (i) => `Unknown style '${String(i.input)}'. Known styles: ${STYLE_IDS.join(', ')}.` });

const SIZE = { error: 'must be an integer between 16 and 4096' };

/** What the request asks for, shared by both forms. */
const renderOptions = {
  /** 'thumbnail' renders a preview (256 px by default, optionally watermarked); 'image' the full render. */
  kind: z.enum(['image', 'thumbnail'], { error: 'must be "image" or "thumbnail"' }).default('image'),
  /** Long side in pixels (thumbnail: its size, default 256; image: at most this, default 2048). */
  size: z.number(SIZE).int(SIZE).min(16, SIZE).max(4096, SIZE).optional(),
  watermark: z.boolean({ error: 'must be a boolean' }).default(false),
};

/** One style to one object (or back inline when the input came inline). */
export const engineSingleRequest = z
  .object({
    input: z.union([s3Location, z.object({ data: z.string().min(1) })], {
      error: 'must be {"bucket","key"} (or {"data": base64} for small images)',
    }),
    output: s3Location.optional(),
    style: styleId,
    ...renderOptions,
  })
  .refine((r) => 'data' in r.input || r.output !== undefined, {
    error: 'is required: {"bucket","key"}',
    path: ['output'],
  });

/** One input decoded once, several styles, each to its own object (previews and paid renders use it). */
export const engineBatchRequest = z.object({
  input: s3Location,
  outputs: z
    .array(s3Location.extend({ style: styleId }))
    .min(1)
    .max(MAX_ENGINE_OUTPUTS, { error: `must list 1 to ${MAX_ENGINE_OUTPUTS} {"style","bucket","key"}` }),
  ...renderOptions,
});

export type EngineSingleRequest = z.output<typeof engineSingleRequest>;
export type EngineBatchRequest = z.output<typeof engineBatchRequest>;
/** What a caller writes: the defaulted fields may be left out. */
export type EngineBatchInput = z.input<typeof engineBatchRequest>;

export const engineBatchResponse = z.object({
  outputs: z.array(s3Location.extend({ style: z.string(), width: z.number(), height: z.number() })),
  ms: z.number(),
});
export type EngineBatchResponse = z.output<typeof engineBatchResponse>;

/**
 * The quality gate (engine/quality-gate.ts) on an image the engine did not make (a generative model's, stored at
 * `output`), against its photo at `input`, faces included: the engine holds the face models.
 */
export const engineCheckRequest = z.object({
  op: z.literal('check', { error: 'must be "check"' }),
  input: s3Location,
  output: s3Location,
});
export type EngineCheckRequest = z.output<typeof engineCheckRequest>;

const box = z.tuple([z.number(), z.number(), z.number(), z.number()]);
/** The gate's verdict with its measures (engine/quality-gate.ts QualityResult) and the time taken. */
export const engineCheckResponse = z.object({
  ok: z.boolean(),
  check: z.enum(['contrast', 'structure', 'faces']).optional(),
  reason: z.string().optional(),
  edgeCorrelation: z.number(),
  contrast: z.number(),
  faces: z.array(z.object({ similarity: z.number(), box, renderBox: box })).optional(),
  ms: z.number(),
});
export type EngineCheckResponse = z.output<typeof engineCheckResponse>;

/** A request the engine refuses, with every reason in one sentence a caller can act on. */
export class EngineRequestError extends Error {}

/**
 * Parses any form (a body with `op` is an operation, only "check" today; one with `outputs` a batch; else a single
 * render); throws EngineRequestError naming what is wrong.
 */
export function parseEngineRequest(
  body: unknown,
):
  | { batch: true; check?: undefined; request: EngineBatchRequest }
  | { batch: false; check?: undefined; request: EngineSingleRequest }
  | { batch: false; check: true; request: EngineCheckRequest } {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new EngineRequestError('Request body must be a JSON object.');
  if ('op' in body) return { batch: false, check: true, request: parseWith(engineCheckRequest, body) };
  if ('outputs' in body) return { batch: true, request: parseWith(engineBatchRequest, body) };
  return { batch: false, request: parseWith(engineSingleRequest, body) };
}

export function parseWith<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new EngineRequestError(
    result.error.issues
      .map((i) => {
        // A custom message (an unknown style) is a whole sentence; the others name their field first.
        if (i.code === 'custom' && i.path.at(-1) === 'style') return i.message;
        return `"${i.path.join('.') || 'body'}" ${i.message}`;
      })
      .join('; '),
  );
}
