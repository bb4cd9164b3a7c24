import { RekognitionClient } from '@aws-sdk/client-rekognition';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * AWS clients, created once per container. Endpoints come from the SDK's standard variables
 * (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_DYNAMODB, ...), which the local runtime sets; the code never asks where it runs.
 */
let s3Client: S3Client | undefined;
export function s3(): S3Client {
  // Path-style addressing is a plain client option; emulators need it, AWS accepts it.
  s3Client ??= new S3Client({
    forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
    // A presigned PUT must not carry a checksum of an empty body; S3 would refuse the real upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return s3Client;
}

let docClient: DynamoDBDocumentClient | undefined;
export function ddb(): DynamoDBDocumentClient {
  docClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return docClient;
}

let sfnClient: SFNClient | undefined;
export const sfn = () => (sfnClient ??= new SFNClient({}));

let rekognitionClient: RekognitionClient | undefined;
export const rekognition = () => (rekognitionClient ??= new RekognitionClient({}));

let sagemakerClient: SageMakerRuntimeClient | undefined;
export const sagemaker = () => (sagemakerClient ??= new SageMakerRuntimeClient({ maxAttempts: 1 }));

let secretsClient: SecretsManagerClient | undefined;
export const secretsManager = () => (secretsClient ??= new SecretsManagerClient({}));

let sesClient: SESv2Client | undefined;
export const ses = () => (sesClient ??= new SESv2Client({}));
