/**
 * The SageMaker side of the engine's local endpoint: engine/server.ts is the container (it ships to SageMaker as
 * is), and this proxy in front of it plays what SageMaker serverless adds. An endpoint serves at most its configured
 * MaxConcurrency invocations at once (lib/config.ts engineMaxConcurrency); SageMaker answers one beyond it with
 * HTTP 429 ThrottlingException, which the handlers' SDK client reads back as that exception
 * (lambdas/lib/engine.ts maps it to ENGINE_ERRORS.throttled).
 */
import http from 'node:http';
import { serve } from './serve';

export interface LocalEngineEndpoint {
  url: string;
  /** Invocations being served now (tests). */
  inFlight(): number;
  /** Invocations refused for concurrency so far (tests). */
  throttled(): number;
  setMaxConcurrency(n: number): void;
  close(): Promise<void>;
}

const INVOCATIONS = /^\/endpoints\/[^/]+\/invocations\/?$/;

export async function startEngineEndpoint(opts: {
  /** The model server (engine/server.ts) this endpoint forwards to. */
  container: string;
  maxConcurrency: number;
  host?: string;
}): Promise<LocalEngineEndpoint> {
  const check = (n: number) => {
    if (!Number.isInteger(n) || n < 1) throw new Error(`engine MaxConcurrency must be a whole number >= 1, not ${n}`);
    return n;
  };
  let max = check(opts.maxConcurrency);
  let inFlight = 0;
  let throttled = 0;
  const target = new URL(opts.container);

  const server = http.createServer((req, res) => {
    const invocation = req.method === 'POST' && INVOCATIONS.test((req.url ?? '').split('?')[0]);
    if (invocation && inFlight >= max) {
      throttled++;
      req.resume();
      res.writeHead(429, {
        'content-type': 'application/json',
        'x-amzn-requestid': crypto.randomUUID(),
        'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.sagemaker/',
      });
      res.end(JSON.stringify({ message: `Rate exceeded: the endpoint serves at most ${max} concurrent invocations` }));
      return;
    }
    if (invocation) {
      inFlight++;
      res.once('close', () => inFlight--);
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalFailure' });
        res.end(JSON.stringify({ message: `The container did not answer: ${err.message}` }));
      } else res.destroy();
    });
    req.pipe(upstream);
  });
  return {
    ...(await serve(server, opts.host)),
    inFlight: () => inFlight,
    throttled: () => throttled,
    setMaxConcurrency: (n) => {
      max = check(n);
    },
  };
}
