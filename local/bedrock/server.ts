/**
 * Local stand-in for the Amazon Bedrock runtime's InvokeModel (REST-JSON), for the models the configuration names
 * (lib/config.ts generativeStyles); the handlers' client reaches it through AWS_ENDPOINT_URL_BEDROCK_RUNTIME.
 *   request : POST /model/{modelId}/invoke, the model's own JSON. Stable Image Control Structure's documented body
 *             (the only one drawn): {"image", "prompt", "control_strength"?, "negative_prompt"?, "seed"?,
 *             "output_format"?, "style_preset"?}, validated by ./request-body.ts; the upscale services by ./upscale.ts.
 *   200     : {"seeds": [n], "finish_reasons": [null], "images": ["<base64>"]}
 *   error   : 4xx/5xx, header x-amzn-errortype: <Name>:<namespace> as AWS sends it, body {"message": "..."}.
 * Before the model runs, the account's checks (./gate.ts). The image is drawn by the engine (on a worker thread) in
 * the style whose configured prompt the request carries, at the input's size. Signatures are not verified.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import * as path from 'node:path';
import sharp from 'sharp';
import { foundationModelOf, type GenerativeStyles, STYLE_PRESETS, upscaleModelOf } from '../../domain/generative';
import { EngineWorker, spawnWorker } from '../../engine/engine-worker';
import { readBody } from '../../engine/http-body';
import { AwsError, type Running, serve } from '../serve';
import { accountGate } from './gate';
import type { RenderJob } from './render-worker';
import { enumField, imageField, invalid, jsonBody, OUTPUT_FORMATS, promptFields, seedField } from './request-body';
import { upscale } from './upscale';

const KEYS = new Set('image prompt control_strength negative_prompt seed output_format style_preset'.split(' '));
const MAX_BODY = 32 * 1024 * 1024;

export interface LocalBedrockOptions {
  /** The configured generative styles: which model ids exist here and which prompt means which style. */
  styles: GenerativeStyles;
  log?: (line: string) => void;
  /** The account's requests-per-minute quota per model id (ThrottlingException beyond it); default none. */
  requestsPerMinute?: number;
  /** Models the account is not subscribed to (AccessDeniedException); default none. */
  unsubscribedModels?: readonly string[];
}

export interface LocalBedrock extends Running {
  /** Changes the quota while running (undefined = none). */
  setRequestsPerMinute(n: number | undefined): void;
  /** Replaces the list of models the account is not subscribed to ([] = subscribed to all). */
  setUnsubscribed(models: readonly string[]): void;
  /** Replaces the list of models the account has no access to ([] = access to all). */
  setAccessDenied(models: readonly string[]): void;
  /** Upscale service calls answered so far (./upscale.ts), per model id as called. */
  upscaleCalls(): Record<string, number>;
}

/** Validates a Control Structure body as the model's documented schema does; returns the decoded parts. */
export async function parseControlStructure(raw: Buffer) {
  const body = jsonBody(raw, KEYS);
  promptFields(body, true);
  const { control_strength } = body;
  if (
    control_strength !== undefined &&
    (typeof control_strength !== 'number' || !(control_strength >= 0 && control_strength <= 1))
  )
    throw invalid('Malformed input request: #/control_strength: must be a number between 0 and 1');
  const seed = seedField(body);
  const format = enumField(body, 'output_format', OUTPUT_FORMATS) ?? 'png';
  // The look asked for by name (the documented values); the stand-in draws the style of the configured prompt.
  enumField(body, 'style_preset', STYLE_PRESETS);
  const { bytes, width, height } = await imageField(body.image, { minSide: 64, maxPixels: 9_437_184 });
  return { image: bytes, prompt: body.prompt as string, seed, format, width, height };
}

/**
 * The InvokeModel route (POST /model/{modelId}/invoke) answered by `invoke`, errors in AWS's shape: the stand-in's,
 * and the relay's (./relay.ts).
 */
export function invokeModelServer(
  invoke: (modelId: string, body: Buffer) => Promise<Buffer>,
  log: (line: string) => void,
) {
  return http.createServer(async (req, res) => {
    const send = (status: number, body: Buffer | string, type?: string) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-amzn-requestid': randomUUID(),
        ...(type ? { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` } : {}),
      });
      res.end(body);
    };
    try {
      const m = /^\/model\/([^/]+)\/invoke$/.exec((req.url ?? '').split('?')[0]);
      if (req.method !== 'POST' || !m)
        throw new AwsError('UnknownOperationException', `No operation at ${req.method} ${req.url}`, 404);
      const body = await readBody(req, MAX_BODY);
      if (!body) throw invalid('Input is too long for the requested model');
      send(200, await invoke(decodeURIComponent(m[1]), body));
    } catch (err) {
      const e = err instanceof AwsError ? err : new AwsError('InternalServerException', (err as Error).message, 500);
      if (e.status >= 500) log(`bedrock internal error: ${e.message}`);
      send(e.status, JSON.stringify({ message: e.message }), e.type);
    }
  });
}

export async function startLocalBedrock(opts: LocalBedrockOptions): Promise<LocalBedrock> {
  const log = opts.log ?? (() => {});
  const gate = accountGate({ requestsPerMinute: opts.requestsPerMinute, unsubscribedModels: opts.unsubscribedModels });
  const upscales: Record<string, number> = {};
  // Keyed by the model that draws: a system inference profile reaches its foundation model, so a style configured by
  // the plain id and switched to the profile (the fix AWS's error names) is still drawn here (the gate has already
  // answered a plain call of a profile-only model).
  const byModel = new Map<string, Map<string, string>>();
  for (const [style, s] of Object.entries(opts.styles)) {
    if (!s) continue;
    const prompts = byModel.get(foundationModelOf(s.modelId)) ?? new Map<string, string>();
    byModel.set(foundationModelOf(s.modelId), prompts.set(s.prompt, style));
  }

  // One engine render at a time on a worker thread (started on the first request, again if it dies).
  let engine: EngineWorker<RenderJob, Uint8Array> | undefined;
  let jobs = 0;
  const render = async (job: Omit<RenderJob, 'id'>) => {
    if (!engine?.alive) {
      const w = spawnWorker(path.join(__dirname, 'render-worker'), undefined);
      if (!w) throw new Error('No render-worker module beside local/bedrock/server');
      engine = new EngineWorker(w, 'the local Bedrock render worker was lost');
    }
    return Buffer.from(await engine.run({ id: jobs++, ...job }));
  };

  const answer = (seed: number, image: Buffer) =>
    Buffer.from(JSON.stringify({ seeds: [seed], finish_reasons: [null], images: [image.toString('base64')] }));

  async function invoke(modelId: string, body: Buffer): Promise<Buffer> {
    gate.admit(modelId);
    // Stability's upscale services exist in every account (behind the same gate), configured or not.
    const upscaleModel = upscaleModelOf(modelId);
    if (upscaleModel) {
      const out = await upscale(upscaleModel, body);
      upscales[modelId] = (upscales[modelId] ?? 0) + 1;
      log(`bedrock ${modelId} upscale ${out.width}x${out.height} x4`);
      return answer(0, out.image);
    }
    const prompts = byModel.get(foundationModelOf(modelId));
    if (!prompts)
      throw invalid(`The provided model identifier is invalid: ${modelId} is not a configured generative model here`);
    const req = await parseControlStructure(body);
    const style = prompts.get(req.prompt);
    if (!style) throw invalid('The local stand-in draws only the configured prompts (lib/config.ts generativeStyles)');
    const t0 = Date.now();
    const png = await render({ image: req.image, style, maxSize: Math.max(req.width, req.height) });
    const out = req.format === 'png' ? png : await sharp(png)[req.format]().toBuffer();
    log(`bedrock ${modelId} ${style} ${req.width}x${req.height} in ${Date.now() - t0} ms`);
    return answer(req.seed, out);
  }

  const running = await serve(invokeModelServer(invoke, log));
  return {
    ...running,
    setRequestsPerMinute: gate.setRequestsPerMinute,
    setUnsubscribed: gate.setUnsubscribed,
    setAccessDenied: gate.setAccessDenied,
    upscaleCalls: () => ({ ...upscales }),
    close: async () => {
      await running.close();
      await engine?.close();
    },
  };
}
