/**
 * When AWS_ENDPOINT_URL_BEDROCK_RUNTIME is already set as `npm start` begins (a real Bedrock endpoint, or any
 * compatible one), the runtime uses it instead of its stand-in. The handlers' clients share the runtime's emulator
 * credentials, which a real endpoint would refuse, so they reach it through this relay: the same InvokeModel API on
 * a local port, forwarded with credentials from the default chain (profile, SSO, environment) resolved at start.
 */
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { AwsError, serve } from '../serve';
import { invokeModelServer, type LocalBedrock } from './server';

export async function startBedrockRelay(opts: {
  endpoint: string;
  region: string;
  log: (line: string) => void;
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
  const forward = async (modelId: string, body: Buffer) => {
    const command = new InvokeModelCommand({
      modelId,
      body,
      contentType: 'application/json',
      accept: 'application/json',
    });
    const out = await client.send(command).catch((err: Error & { $metadata?: { httpStatusCode?: number } }) => {
      opts.log(`bedrock relay: ${err.name}: ${err.message}`);
      throw new AwsError(err.name, err.message, err.$metadata?.httpStatusCode ?? 502);
    });
    return Buffer.from(out.body);
  };
  const running = await serve(invokeModelServer(forward, opts.log));
  const notHere = () => {
    throw new Error("The Bedrock relay forwards to a real endpoint: its quota and subscriptions are that account's");
  };
  return {
    ...running,
    setRequestsPerMinute: notHere,
    setUnsubscribed: notHere,
    setAccessDenied: notHere,
    upscaleCalls: notHere,
    close: async () => {
      await running.close();
      client.destroy();
    },
  };
}
