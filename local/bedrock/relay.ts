/**
 * When AWS_ENDPOINT_URL_BEDROCK_RUNTIME is already set as `npm start` begins (a real Bedrock endpoint, or any
 * compatible one), the runtime uses it instead of its stand-in. The handlers' clients share the runtime's emulator
 * credentials, which a real endpoint would refuse, so they reach it through this relay: the same InvokeModel API on
 * a local port, forwarded with credentials from the default chain (profile, SSO, environment) resolved at start.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { LocalBedrock } from './server';

export async function startBedrockRelay(opts: {
  endpoint: string;
  region: string;
  log?: (line: string) => void;
}): Promise<LocalBedrock> {
  // Resolved now, before the runtime puts its emulator credentials into the environment.
  const credentials = await fromNodeProviderChain()().catch((err: Error) => {
    throw new Error(
      `AWS_ENDPOINT_URL_BEDROCK_RUNTIME is set (${opts.endpoint}) but the default credential chain has no credentials for it: ${err.message}`,
    );
  });
  // HTTP/1.1 like the handlers' client (lambdas/lib/aws.ts): AWS accepts it, and so does any compatible endpoint.
  const client = new BedrockRuntimeClient({
    endpoint: opts.endpoint,
    region: opts.region,
    credentials,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({ requestTimeout: 110_000 }),
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/model\/([^/]+)\/invoke$/.exec((req.url ?? '').split('?')[0]);
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' });
        res.end(JSON.stringify({ message: `No operation at ${req.method} ${req.url}` }));
        return;
      }
      client
        .send(
          new InvokeModelCommand({
            modelId: decodeURIComponent(m[1]),
            body: Buffer.concat(chunks),
            contentType: 'application/json',
            accept: 'application/json',
          }),
        )
        .then((out) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(Buffer.from(out.body));
        })
        .catch((err: Error & { $metadata?: { httpStatusCode?: number } }) => {
          opts.log?.(`bedrock relay: ${err.name}: ${err.message}`);
          res.writeHead(err.$metadata?.httpStatusCode ?? 502, {
            'content-type': 'application/json',
            'x-amzn-errortype': err.name,
          });
          res.end(JSON.stringify({ message: err.message }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const notHere = () => {
    throw new Error("The Bedrock relay forwards to a real endpoint: its quota and subscriptions are that account's");
  };
  return {
    url: `http://127.0.0.1:${port}`,
    setRequestsPerMinute: notHere,
    setUnsubscribed: notHere,
    setBlankOutputs: notHere,
    setFacelessOutputs: notHere,
    setAccessDenied: notHere,
    upscaleCalls: notHere,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        client.destroy();
      }),
  };
}
