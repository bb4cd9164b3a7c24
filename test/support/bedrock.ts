import { GENERATIVE_PRESETS } from '../../domain/generative';
import { startFaultProxy } from './fault-proxy';
import { api, startTestRuntime } from './runtime';

/** The style a request is for, from its prompt (the configured presets). */
export function styleOfPrompt(prompt: unknown): string | undefined {
  return Object.entries(GENERATIVE_PRESETS).find(([, s]) => s.prompt === prompt)?.[0];
}

export interface SeenRequest {
  modelId: string;
  style: string | undefined;
  body: Record<string, unknown>;
  authorization: string;
}

/**
 * A fault-injecting proxy in front of the Bedrock runtime endpoint (the stand-in), like startEngineFaults for the
 * engine: it records every InvokeModel body, answers ThrottlingException for the next n calls of a style, or the
 * model's content-filtered answer for every call of a style; everything else is passed through unchanged.
 */
export async function startBedrockFaults(target: string) {
  const requests: SeenRequest[] = [];
  const throttles = new Map<string, number>();
  const filtered = new Set<string>();
  const proxy = await startFaultProxy(target, (req, body, res) => {
    const modelId = decodeURIComponent(/^\/model\/([^/]+)\/invoke/.exec(req.url ?? '')?.[1] ?? '');
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      // not JSON: the stand-in will say so
    }
    const style = styleOfPrompt(parsed.prompt);
    requests.push({ modelId, style, body: parsed, authorization: String(req.headers.authorization ?? '') });
    const left = style ? (throttles.get(style) ?? 0) : 0;
    if (style && left > 0) {
      throttles.set(style, left - 1);
      res.writeHead(429, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      });
      res.end(JSON.stringify({ message: 'Too many requests, please wait before trying again.' }));
      return true;
    }
    if (style && filtered.has(style)) {
      // The documented answer of a filtered generation: 200 with a finish reason and no image.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ seeds: [parsed.seed ?? 1], finish_reasons: ['Filter reason: output image'], images: [] }),
      );
      return true;
    }
    return false;
  });
  return {
    ...proxy,
    requests,
    throttle: (style: string, times: number) => throttles.set(style, times),
    filter: (style: string) => filtered.add(style),
    calls: (style: string) => requests.filter((r) => r.style === style).length,
  };
}

export type BedrockFaults = Awaited<ReturnType<typeof startBedrockFaults>>;

/**
 * A test runtime whose functions reach its Bedrock stand-in through startBedrockFaults' proxy, so a test can read and
 * fail their calls. `close` stops both and gives this process its own endpoint back.
 */
export async function startRuntimeBehindBedrockFaults(options: Parameters<typeof startTestRuntime>[0]) {
  const saved = process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
  const runtime = await startTestRuntime(options);
  const faults = await startBedrockFaults(runtime.bedrock.url).catch(async (err) => {
    await runtime.close();
    throw err;
  });
  process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = runtime.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = faults.url;
  return {
    runtime,
    faults,
    client: api(runtime.url),
    async close() {
      await runtime.idle();
      await runtime.close();
      await faults.close();
      if (saved === undefined) delete process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
      else process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = saved;
    },
  };
}
