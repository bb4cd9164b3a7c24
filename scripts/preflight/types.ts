/**
 * What a preflight check is and what it sees. Checks read the account through the clients handed to them (so tests
 * hand them mocked ones) and answer findings: one line of the checklist each, with the fix when it is not a pass.
 */
import type { BedrockClient } from '@aws-sdk/client-bedrock';
import type { IAMClient } from '@aws-sdk/client-iam';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SSMClient } from '@aws-sdk/client-ssm';
import type { STSClient } from '@aws-sdk/client-sts';
import type { EnvConfig } from '../../lib/config';

/** pass ✓, fail ✗ (a deploy would not work: exit code 1), warn ! (works, but look), skip - (could not be checked). */
export type Status = 'pass' | 'fail' | 'warn' | 'skip';

export interface Finding {
  readonly status: Status;
  readonly title: string;
  readonly detail: string;
  /** What to do about it; every fail and warn has one. */
  readonly fix?: string;
}

/** AWS clients by region; every call a check makes is a read. */
export interface Clients {
  sts(): STSClient;
  iam(): IAMClient;
  bedrock(region: string): BedrockClient;
  sesv2(region: string): SESv2Client;
  quotas(region: string): ServiceQuotasClient;
  lambda(region: string): LambdaClient;
  sagemaker(region: string): SageMakerClient;
  ssm(region: string): SSMClient;
}

/** `docker info` as the deploy would meet it; rejects when Docker is missing or its daemon does not answer. */
export type DockerProbe = () => Promise<{ serverVersion: string; architecture: string }>;

export interface PreflightContext {
  readonly config: EnvConfig;
  /** Region of the app's stack (what `cdk deploy` resolves: CDK_DEFAULT_REGION, AWS_REGION, the profile); null = none. */
  readonly region: string | null;
  readonly clients: Clients;
  readonly docker: DockerProbe;
  /** Answers shared by several checks (the caller, each model), asked once per run. */
  readonly memo: Map<string, Promise<unknown>>;
}

export interface Check {
  readonly title: string;
  /** Needs working credentials and a region: skipped when a gate check failed. */
  readonly needsAccount: boolean;
  /** When this check fails, the checks that need the account are skipped (their calls could only fail). */
  readonly gate?: boolean;
  run(ctx: PreflightContext): Promise<Finding[]>;
}

/** The app's stack, named as lib/app.ts names it. */
export const stackName = (config: EnvConfig) => `ToonZap-${config.envName}`;

/** Bedrock requests per minute per model the admission control plans (lambdas/lib/capacity.ts). */
export const plannedBedrockRpm = (config: EnvConfig): number => config.bedrockRequestsPerMinute;

/** `Name: message` of an SDK error, for a detail line. */
export function describeError(e: unknown): string {
  const err = e as { name?: string; message?: string };
  return [err?.name, err?.message].filter(Boolean).join(': ') || String(e);
}

export const errorName = (e: unknown) => (e as { name?: string })?.name ?? '';

/** Memoises an answer several checks need, per run. */
export function once<T>(ctx: PreflightContext, key: string, make: () => Promise<T>): Promise<T> {
  let p = ctx.memo.get(key) as Promise<T> | undefined;
  if (!p) {
    p = make();
    ctx.memo.set(key, p);
  }
  return p;
}
