import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { RekognitionClient } from '@aws-sdk/client-rekognition';
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SFNClient } from '@aws-sdk/client-sfn';
import { type DeleteCommand, DynamoDBDocumentClient, type PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { tracer } from './observability';

/**
 * AWS clients, created once per container. Endpoints come from the SDK's standard variables
 * (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_DYNAMODB, ...), which the local runtime sets; the code never asks where it runs.
 * A client is remade if its endpoint variable changes, which only happens when one process starts a second
 * local runtime (the benchmarks); on AWS the variables never change.
 */
interface Held {
  key: string;
  client: { destroy(): void };
}
const held = new Map<string, Held>();

function client<T extends { destroy(): void }>(endpointVar: string, create: () => T): T {
  const key = process.env[endpointVar] ?? process.env.AWS_ENDPOINT_URL ?? '';
  const h = held.get(endpointVar);
  if (h && h.key === key) return h.client as T;
  h?.client.destroy();
  // Each AWS call becomes a trace subsegment (a no-op where tracing is off, as locally).
  const c = tracer.captureAWSv3Client(create());
  held.set(endpointVar, { key, client: c });
  return c;
}

export function s3(): S3Client {
  return client(
    'AWS_ENDPOINT_URL_S3',
    () =>
      new S3Client({
        // Path-style addressing is a plain client option; emulators need it, AWS accepts it.
        forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
        // A presigned PUT must not carry a checksum of an empty body; S3 would refuse the real upload.
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
  );
}

/** DynamoDB's own client: the idempotency records' persistence layer (lambdas/lib/idempotency.ts) speaks it. */
export const dynamodb = () => client('AWS_ENDPOINT_URL_DYNAMODB', () => new DynamoDBClient({}));

let documents: { base: DynamoDBClient; client: DynamoDBDocumentClient } | undefined;

/** The document client every table access uses, over the one DynamoDB client (remade with it). */
export function ddb(): DynamoDBDocumentClient {
  const base = dynamodb();
  if (documents?.base !== base)
    documents = {
      base,
      client: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }),
    };
  return documents.client;
}

/**
 * Sends a conditional write: true when it was applied, false when its ConditionExpression did not hold (the
 * expected answer of an idempotent step that already happened); any other error is thrown.
 */
export async function writeIf(command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    await ddb().send(command as UpdateCommand);
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

export const sfn = () => client('AWS_ENDPOINT_URL_SFN', () => new SFNClient({}));
export const rekognition = () => client('AWS_ENDPOINT_URL_REKOGNITION', () => new RekognitionClient({}));
export const sagemaker = () =>
  client('AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME', () => new SageMakerRuntimeClient({ maxAttempts: 1 }));
/**
 * Bedrock runtime in the configured region (the model's, not necessarily the stack's). One attempt: throttling is
 * retried by the order pipeline with backoff, so SDK retries would only multiply the wait. HTTP/1.1: the client's
 * default HTTP/2 handler exists for bidirectional streams, which InvokeModel (one request, one response) never uses.
 */
export const bedrock = (region: string) =>
  client(
    'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
    () =>
      new BedrockRuntimeClient({
        region,
        maxAttempts: 1,
        requestHandler: new NodeHttpHandler({ requestTimeout: 110_000 }),
      }),
  );
export const secretsManager = () => client('AWS_ENDPOINT_URL_SECRETS_MANAGER', () => new SecretsManagerClient({}));
export const ses = () => client('AWS_ENDPOINT_URL_SESV2', () => new SESv2Client({}));
