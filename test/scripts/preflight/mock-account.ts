/**
 * A mocked AWS account for the preflight tests (aws-sdk-client-mock): every client the checks use, with fake
 * credentials, answering only what a test tells it; and the prod config the checks read.
 */
import {
  BedrockClient,
  GetFoundationModelCommand,
  GetInferenceProfileCommand,
  type InferenceType,
  ListInferenceProfilesCommand,
} from '@aws-sdk/client-bedrock';
import { IAMClient } from '@aws-sdk/client-iam';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { type EnvConfig, resolveConfig } from '../../../lib/config';
import type { Clients, DockerProbe, Finding, PreflightContext } from '../../../scripts/preflight/types';

export const FM = 'stability.stable-image-control-structure-v1:0';
export const PROFILE = `us.${FM}`;
export const ACCOUNT = '123456789012';
export const fmArn = (region: string) => `arn:aws:bedrock:${region}::foundation-model/${FM}`;

export const sts = mockClient(STSClient);
export const iam = mockClient(IAMClient);
export const bedrock = mockClient(BedrockClient);
export const sesv2 = mockClient(SESv2Client);
export const quotas = mockClient(ServiceQuotasClient);
export const lambda = mockClient(LambdaClient);
export const sagemaker = mockClient(SageMakerClient);
export const ssm = mockClient(SSMClient);
export const mocks = [sts, iam, bedrock, sesv2, quotas, lambda, sagemaker, ssm];

export const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' };
export const clients: Clients = {
  sts: () => new STSClient({ region: 'eu-west-1', credentials }),
  iam: () => new IAMClient({ region: 'us-east-1', credentials }),
  bedrock: (region) => new BedrockClient({ region, credentials }),
  sesv2: (region) => new SESv2Client({ region, credentials }),
  quotas: (region) => new ServiceQuotasClient({ region, credentials }),
  lambda: (region) => new LambdaClient({ region, credentials }),
  sagemaker: (region) => new SageMakerClient({ region, credentials }),
  ssm: (region) => new SSMClient({ region, credentials }),
};

/** The prod config `cdk deploy -c env=prod -c ...` would build, one generative style on `modelId`. */
export function prodConfig(modelId: string, context: Record<string, string> = {}): EnvConfig {
  const all: Record<string, string> = {
    env: 'prod',
    generativeStyles: '3d',
    generativeSettings: JSON.stringify({ '3d': { modelId } }),
    mailFrom: 'ToonZap <orders@toonzap.com>',
    ...context,
  };
  return resolveConfig((key) => all[key]);
}

export const dockerOk: DockerProbe = async () => ({ serverVersion: '27.3.1', architecture: 'x86_64' });

export function ctx(config: EnvConfig, extra: Partial<PreflightContext> = {}): PreflightContext {
  return { config, region: 'eu-west-1', clients, docker: dockerOk, memo: new Map(), ...extra };
}

export const awsError = (name: string, message = name) => Object.assign(new Error(message), { name });

/** Bedrock answering for the cross-Region profile and its foundation model (profile-only, as AWS lists it). */
export function bedrockWithProfile(regions = ['us-east-1', 'us-east-2', 'us-west-2']) {
  bedrock.on(GetInferenceProfileCommand, { inferenceProfileIdentifier: PROFILE }).resolves({
    inferenceProfileId: PROFILE,
    status: 'ACTIVE',
    type: 'SYSTEM_DEFINED',
    models: regions.map((r) => ({ modelArn: fmArn(r) })),
  });
  bedrock.on(GetFoundationModelCommand, { modelIdentifier: FM }).resolves({
    modelDetails: {
      modelId: FM,
      modelArn: fmArn('us-west-2'),
      modelName: 'Stable Image Control Structure',
      providerName: 'Stability AI',
      // The SDK's enum predates it; AWS's model inventory lists this model with INFERENCE_PROFILE only.
      inferenceTypesSupported: ['INFERENCE_PROFILE' as InferenceType],
      modelLifecycle: { status: 'ACTIVE' },
    },
  });
  bedrock.on(ListInferenceProfilesCommand).resolves({
    inferenceProfileSummaries: [
      {
        inferenceProfileId: PROFILE,
        inferenceProfileName: 'US Stable Image Control Structure',
        inferenceProfileArn: `arn:aws:bedrock:us-west-2:${ACCOUNT}:inference-profile/${PROFILE}`,
        status: 'ACTIVE',
        type: 'SYSTEM_DEFINED',
        models: regions.map((r) => ({ modelArn: fmArn(r) })),
      },
    ],
  });
}

export const only = (findings: Finding[]) => {
  expect(findings).toHaveLength(1);
  return findings[0];
};

/** Fresh mocks for every test, with a caller that signs in. */
export function mockAccountPerTest() {
  beforeEach(() => {
    for (const m of mocks) m.reset();
    sts.on(GetCallerIdentityCommand).resolves({
      Account: ACCOUNT,
      Arn: `arn:aws:sts::${ACCOUNT}:assumed-role/Deployer/alice`,
      UserId: 'AROA:alice',
    });
  });
}
