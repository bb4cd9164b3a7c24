/**
 * `npm run preflight -- -c env=prod [-c key=value ...]`: checks the target account before the first deploy, with the
 * same configuration `cdk deploy` would build (lib/config.ts's resolveConfig over the same -c keys) and read-only calls.
 * Exits 1 when a required check fails, 2 on bad arguments.
 */
import { BedrockClient } from '@aws-sdk/client-bedrock';
import { IAMClient } from '@aws-sdk/client-iam';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { type EnvConfig, resolveConfig } from '../../lib/config';
import { parseContextArgs } from './args';
import { dockerInfo } from './checks/docker';
import { formatReport } from './report';
import { exitCodeOf, runChecks } from './run';
import type { Clients } from './types';

/**
 * One client per service and region, on the default credential chain (AWS_PROFILE, SSO, environment, ...). STS is
 * asked in the app's region, or us-east-1 without one, so a missing region is not reported as missing credentials.
 */
function awsClients(appRegion: string | null): Clients {
  const cache = new Map<string, unknown>();
  const get = <T>(key: string, make: () => T): T => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key) as T;
  };
  return {
    sts: () => get('sts', () => new STSClient({ region: appRegion ?? 'us-east-1' })),
    iam: () => get('iam', () => new IAMClient({})),
    bedrock: (region) => get(`bedrock:${region}`, () => new BedrockClient({ region })),
    sesv2: (region) => get(`sesv2:${region}`, () => new SESv2Client({ region })),
    quotas: (region) => get(`quotas:${region}`, () => new ServiceQuotasClient({ region })),
    lambda: (region) => get(`lambda:${region}`, () => new LambdaClient({ region })),
    sagemaker: (region) => get(`sagemaker:${region}`, () => new SageMakerClient({ region })),
    ssm: (region) => get(`ssm:${region}`, () => new SSMClient({ region })),
  };
}

/** The region bin/app.ts deploys the app stack to; the SDK's own chain (AWS_REGION, the profile) when CDK's is unset. */
async function appRegion(): Promise<string | null> {
  if (process.env.CDK_DEFAULT_REGION) return process.env.CDK_DEFAULT_REGION;
  try {
    return (await new STSClient({}).config.region()) || null;
  } catch {
    return null;
  }
}

async function main(argv: string[]): Promise<number> {
  let config: EnvConfig;
  try {
    const context = parseContextArgs(argv);
    config = resolveConfig((key) => context[key]);
  } catch (e) {
    console.error(`preflight: ${(e as Error).message}`);
    return 2;
  }
  const region = await appRegion();
  const findings = await runChecks({
    config,
    region,
    clients: awsClients(region),
    docker: dockerInfo,
    memo: new Map(),
  });
  console.log(formatReport(`ToonZap preflight: env ${config.envName}, region ${region ?? '(none)'}`, findings));
  return exitCodeOf(findings);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
