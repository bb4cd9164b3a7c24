/**
 * Local stand-in for the Amazon Bedrock runtime's InvokeModel, for the models the configuration names
 * (lib/config.ts generativeStyles), the way local/rekognition plays Rekognition.
 *
 * Point the unchanged handler code at it with AWS_ENDPOINT_URL_BEDROCK_RUNTIME=http://127.0.0.1:<port>; then
 * `new BedrockRuntimeClient({}).send(new InvokeModelCommand({ modelId, body }))` lands here.
 *
 * Wire format (REST-JSON, as @aws-sdk/client-bedrock-runtime 3.x speaks it):
 *   request : POST /model/{modelId}/invoke   (modelId URL-encoded), Content-Type: application/json, body = the
 *             model's own JSON. For Stable Image Control Structure (the only request schema implemented):
 *             {"image": base64 PNG/JPEG/WEBP (required; each side >= 64 px, at most 9,437,184 px, aspect ratio
 *              1:2.5..2.5:1), "prompt": string 0..10000 (required), "control_strength"?: 0..1,
 *              "negative_prompt"?: string <= 10000, "seed"?: integer 0..4294967294, "output_format"?:
 *              "jpeg"|"png"|"webp", "style_preset"?: one of STYLE_PRESETS (domain/generative.ts)}; other keys are
 *              refused; an enum miss answers "#/<key>: <value> is not a valid enum value" (./request-body.ts).
 *   200     : {"seeds": [n], "finish_reasons": [null], "images": ["<base64>"]}   (Content-Type: application/json)
 *   error   : 4xx/5xx, header x-amzn-errortype: <Name>:<namespace> as AWS sends it, body {"message": "..."}; the SDK
 *             resolves <Name> to its exception class (ValidationException 400, AccessDeniedException 403, ...).
 * Stability's upscale services (Fast, Conservative) are answered by ./upscale.ts (x4 by lanczos3, a stand-in).
 * Before the model runs, the account's checks (./gate.ts): inference-profile-only models, Marketplace subscription,
 * requests-per-minute quota.
 * The image is drawn by the engine (renderStyle, on a worker thread) in the style whose configured prompt the
 * request carries, at the input's size. Signatures are not verified. Tests can make the next images blank or
 * faceless (a model gone wrong, for the quality gate).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { type GenerativeStyles, parseModelId, STYLE_PRESETS, upscaleModelOf } from '../../domain/generative';
import { spawnWorker } from '../../engine/engine-worker';
import { accountGate, BedrockError } from './gate';
import type { RenderJob, RenderResult } from './render-worker';
import { enumField, imageField, invalid, jsonBody } from './request-body';
import { parseUpscale, upscaleImage } from './upscale';

/** Documented limits of the Stability AI image services on Bedrock. */
export const LIMITS = {
  minSide: 64,
  maxPixels: 9_437_184,
  maxAspect: 2.5,
  maxPrompt: 10_000,
  maxSeed: 4_294_967_294,
} as const;
const KEYS = new Set([
  'image',
  'prompt',
  'control_strength',
  'negative_prompt',
  'seed',
  'output_format',
  'style_preset',
]);
const MAX_BODY = 32 * 1024 * 1024;

export interface LocalBedrockOptions {
  port?: number;
  host?: string;
  /** The configured generative styles: which model ids exist here and which prompt means which style. */
  styles: GenerativeStyles;
  log?: (line: string) => void;
  /** The account's requests-per-minute quota per model id (ThrottlingException beyond it); default none. */
  requestsPerMinute?: number;
  /** Models the account is not subscribed to (AccessDeniedException); default none. */
  unsubscribedModels?: readonly string[];
}

export interface LocalBedrock {
  url: string;
  /** Changes the quota while running (undefined = none). */
  setRequestsPerMinute(n: number | undefined): void;
  /** Replaces the list of models the account is not subscribed to ([] = subscribed to all). */
  setUnsubscribed(models: readonly string[]): void;
  /** Tests: the next `n` images drawn are one flat grey (a model gone wrong), counted over every model. */
  setBlankOutputs(n: number): void;
  /**
   * Tests: the next `n` images drawn have every face of the photo painted over (a model that lost the person),
   * counted over every model.
   */
  setFacelessOutputs(n: number): void;
  /** Replaces the list of models the account has no access to ([] = access to all). */
  setAccessDenied(models: readonly string[]): void;
  /** Upscale service calls answered so far (./upscale.ts), per model id as called. */
  upscaleCalls(): Record<string, number>;
  close(): Promise<void>;
}

interface ControlStructureRequest {
  image: Buffer;
  prompt: string;
  seed: number;
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
}

/** Validates a request body as the model's documented schema does; returns the decoded parts. */
export async function parseControlStructure(raw: Buffer): Promise<ControlStructureRequest> {
  const body = jsonBody(raw, KEYS);
  const { image, prompt, control_strength, negative_prompt, seed } = body;
  if (typeof prompt !== 'string')
    throw invalid('Malformed input request: #: required key [prompt] not found or not a string');
  if (prompt.length > LIMITS.maxPrompt)
    throw invalid(
      `Malformed input request: #/prompt: expected maxLength: ${LIMITS.maxPrompt}, actual: ${prompt.length}`,
    );
  if (typeof image !== 'string')
    throw invalid('Malformed input request: #: required key [image] not found or not a string');
  if (
    control_strength !== undefined &&
    (typeof control_strength !== 'number' || control_strength < 0 || control_strength > 1)
  ) {
    throw invalid('Malformed input request: #/control_strength: must be a number between 0 and 1');
  }
  if (
    negative_prompt !== undefined &&
    (typeof negative_prompt !== 'string' || negative_prompt.length > LIMITS.maxPrompt)
  ) {
    throw invalid(
      `Malformed input request: #/negative_prompt: must be a string of at most ${LIMITS.maxPrompt} characters`,
    );
  }
  if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > LIMITS.maxSeed)) {
    throw invalid(`Malformed input request: #/seed: must be an integer between 0 and ${LIMITS.maxSeed}`);
  }
  const format = enumField(body, 'output_format', ['jpeg', 'png', 'webp'] as const) ?? 'png';
  // The look asked for by name (domain/generative.ts STYLE_PRESETS, the documented values); the stand-in draws the
  // style of the configured prompt either way.
  enumField(body, 'style_preset', STYLE_PRESETS);
  const { bytes, width, height } = await imageField(image);
  if (Math.min(width, height) < LIMITS.minSide)
    throw invalid(`Invalid image: every side must be at least ${LIMITS.minSide} pixels (got ${width}x${height})`);
  if (width * height > LIMITS.maxPixels)
    throw invalid(`Invalid image: at most ${LIMITS.maxPixels} pixels (got ${width}x${height})`);
  if (Math.max(width, height) / Math.min(width, height) > LIMITS.maxAspect)
    throw invalid(
      `Invalid image: aspect ratio must be between 1:${LIMITS.maxAspect} and ${LIMITS.maxAspect}:1 (got ${width}x${height})`,
    );
  return {
    image: bytes,
    prompt,
    seed: (seed as number | undefined) || Math.floor(Math.random() * LIMITS.maxSeed) + 1,
    format,
    width,
    height,
  };
}

/** One engine render at a time on a worker thread (started on the first request): the main thread stays free. */
function renderer() {
  let worker: Worker | undefined;
  let next = 0;
  const pending = new Map<number, { resolve: (png: Buffer) => void; reject: (e: Error) => void }>();
  const start = () => {
    const w = spawnWorker(path.join(__dirname, 'render-worker'), undefined);
    if (!w) throw new Error('No render-worker module beside local/bedrock/server');
    w.on('message', (r: RenderResult) => {
      const p = pending.get(r.id);
      pending.delete(r.id);
      if (r.ok) p?.resolve(Buffer.from(r.png));
      else p?.reject(new Error(r.error));
    });
    w.on('error', (err) => {
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      worker = undefined;
    });
    w.unref();
    return w;
  };
  return {
    render(image: Buffer, style: string, maxSize: number, eraseFaces: boolean): Promise<Buffer> {
      worker ??= start();
      const id = next++;
      return new Promise<Buffer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage({ id, image, style, maxSize, eraseFaces } satisfies RenderJob);
      });
    },
    close: async () => {
      await worker?.terminate();
      worker = undefined;
    },
  };
}

const count = (n: number, what: string) => {
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a whole number >= 0, not ${n}`);
  return n;
};

export async function startLocalBedrock(opts: LocalBedrockOptions): Promise<LocalBedrock> {
  const log = opts.log ?? (() => {});
  const engine = renderer();
  const gate = accountGate({ requestsPerMinute: opts.requestsPerMinute, unsubscribedModels: opts.unsubscribedModels });
  let blanks = 0;
  let faceless = 0;
  const byModel = new Map<string, Map<string, string>>();
  // Keyed by the model that draws: a system inference profile reaches its foundation model, so a style configured by
  // the plain id and switched to the profile (the fix AWS's error names) is still drawn here (the gate has already
  // answered a plain call of a profile-only model).
  const modelOf = (id: string) => {
    const ref = parseModelId(id);
    return ref?.kind === 'inference-profile' ? ref.foundationModel : id;
  };
  for (const [style, s] of Object.entries(opts.styles)) {
    if (!s) continue;
    const model = modelOf(s.modelId);
    if (!byModel.has(model)) byModel.set(model, new Map());
    byModel.get(model)!.set(s.prompt, style);
  }

  const upscales: Record<string, number> = {};
  async function invoke(modelId: string, body: Buffer): Promise<Buffer> {
    gate.admit(modelId);
    // Stability's upscale services exist in every account (behind the same gate), configured or not.
    const upscaleModel = upscaleModelOf(modelId);
    if (upscaleModel) {
      const req = await parseUpscale(upscaleModel, body);
      const out = await upscaleImage(req);
      upscales[modelId] = (upscales[modelId] ?? 0) + 1;
      log(`bedrock ${modelId} upscale ${req.width}x${req.height} x4`);
      return Buffer.from(JSON.stringify({ seeds: [0], finish_reasons: [null], images: [out.toString('base64')] }));
    }
    const prompts = byModel.get(modelOf(modelId));
    if (!prompts)
      throw invalid(`The provided model identifier is invalid: ${modelId} is not a configured generative model here`);
    const req = await parseControlStructure(body);
    const style = prompts.get(req.prompt);
    if (!style) throw invalid('The local stand-in draws only the configured prompts (lib/config.ts generativeStyles)');
    const t0 = Date.now();
    const blank = blanks > 0;
    if (blank) blanks--;
    const erase = !blank && faceless > 0;
    if (erase) faceless--;
    const png = blank
      ? await sharp({ create: { width: req.width, height: req.height, channels: 3, background: '#7f7f7f' } })
          .png()
          .toBuffer()
      : await engine.render(req.image, style, Math.max(req.width, req.height), erase);
    const out = req.format === 'png' ? png : await sharp(png)[req.format]().toBuffer();
    const odd = blank ? ' blank' : erase ? ' faceless' : '';
    log(`bedrock ${modelId} ${style} ${req.width}x${req.height}${odd} in ${Date.now() - t0} ms`);
    return Buffer.from(JSON.stringify({ seeds: [req.seed], finish_reasons: [null], images: [out.toString('base64')] }));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const send = (status: number, body: Buffer, type?: string) => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'x-amzn-requestid': crypto.randomUUID(),
          ...(type ? { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` } : {}),
        });
        res.end(body);
      };
      const fail = (err: unknown) => {
        const e =
          err instanceof BedrockError ? err : new BedrockError('InternalServerException', (err as Error).message, 500);
        if (e.status >= 500) log(`bedrock internal error: ${e.message}`);
        send(e.status, Buffer.from(JSON.stringify({ message: e.message })), e.type);
      };
      const m = /^\/model\/([^/]+)\/invoke$/.exec((req.url ?? '').split('?')[0]);
      if (req.method !== 'POST' || !m)
        return fail(new BedrockError('UnknownOperationException', `No operation at ${req.method} ${req.url}`, 404));
      if (size > MAX_BODY) return fail(invalid('Input is too long for the requested model'));
      invoke(decodeURIComponent(m[1]), Buffer.concat(chunks)).then((out) => send(200, out), fail);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    setRequestsPerMinute: (n) => gate.setRequestsPerMinute(n),
    setUnsubscribed: (models) => gate.setUnsubscribed(models),
    setBlankOutputs: (n) => {
      blanks = count(n, 'blank outputs');
    },
    setFacelessOutputs: (n) => {
      faceless = count(n, 'faceless outputs');
    },
    setAccessDenied: (models) => gate.setAccessDenied(models),
    upscaleCalls: () => ({ ...upscales }),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await engine.close();
    },
  };
}
