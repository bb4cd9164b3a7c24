import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvokeEndpointCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ENGINE_ERRORS } from '../../domain/wiring';
import { type LocalEngineEndpoint, startEngineEndpoint } from '../../local/engine-endpoint';

/**
 * The local SageMaker endpoint in front of the engine's container enforces MaxConcurrency as SageMaker serverless
 * does, and the real SDK client (and the handlers' engine client) read its answer as ThrottlingException.
 */
describe('local engine endpoint: MaxConcurrency', () => {
  let container: http.Server;
  let endpoint: LocalEngineEndpoint;
  let client: SageMakerRuntimeClient;
  /** Requests the container holds until released: the test decides when an invocation ends. */
  const held: http.ServerResponse[] = [];
  let arrived: () => void = () => {};

  beforeAll(async () => {
    container = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        held.push(res);
        arrived();
      });
    });
    await new Promise<void>((r) => container.listen(0, '127.0.0.1', r));
    endpoint = await startEngineEndpoint({
      container: `http://127.0.0.1:${(container.address() as AddressInfo).port}`,
      maxConcurrency: 2,
      host: '127.0.0.1',
    });
    client = new SageMakerRuntimeClient({
      endpoint: endpoint.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
  });
  afterAll(async () => {
    client?.destroy();
    await endpoint?.close();
    container?.closeAllConnections();
    await new Promise<void>((r) => container.close(() => r()));
  });

  const invoke = () =>
    client.send(
      new InvokeEndpointCommand({
        EndpointName: 'engine',
        ContentType: 'application/json',
        Body: new TextEncoder().encode('{"ping":1}'),
      }),
    );
  const heldCount = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (held.length >= n) resolve();
        else arrived = check;
      };
      check();
    });
  const releaseAll = () => {
    for (const res of held.splice(0)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"outputs":[],"ms":1}');
    }
  };

  test('an invocation beyond MaxConcurrency is refused with 429 ThrottlingException; freed slots are served', async () => {
    const first = [invoke(), invoke()];
    await heldCount(2);
    expect(endpoint.inFlight()).toBe(2);
    const err = await invoke().then(
      () => null,
      (e: Error & { $metadata?: { httpStatusCode?: number } }) => e,
    );
    expect(err?.name).toBe('ThrottlingException');
    expect(err?.$metadata?.httpStatusCode).toBe(429);
    expect(endpoint.throttled()).toBe(1);
    releaseAll();
    await Promise.all(first);
    // The slots are free again.
    const again = invoke();
    await heldCount(1);
    releaseAll();
    await expect(again).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(endpoint.inFlight()).toBe(0);
  });

  test("the handlers' engine client names it EngineThrottled, an error the order pipeline retries", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: endpoint.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'x',
      ENGINE_ENDPOINT: 'engine',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    try {
      const { renderOnEngine } = await import('../../lambdas/lib/engine');
      endpoint.setMaxConcurrency(1);
      const first = invoke();
      await heldCount(1);
      const request = {
        input: { bucket: 'b', key: 'k' },
        kind: 'image' as const,
        outputs: [{ style: 'sketch' as const, bucket: 'b', key: 'out' }],
      };
      await expect(renderOnEngine(request)).rejects.toMatchObject({ name: ENGINE_ERRORS.throttled });
      releaseAll();
      await first;
    } finally {
      process.env = saved;
    }
  });
});
