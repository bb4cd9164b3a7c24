/**
 * Read-only answers several checks share (the caller, what a configured model id is, a service quota), asked once
 * per run through the context's memo.
 */
import {
  type FoundationModelDetails,
  GetFoundationModelCommand,
  GetInferenceProfileCommand,
  type GetInferenceProfileCommandOutput,
} from '@aws-sdk/client-bedrock';
import {
  ListAWSDefaultServiceQuotasCommand,
  ListServiceQuotasCommand,
  type ServiceQuota,
} from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { errorName, once, type PreflightContext } from './types';

export interface Caller {
  readonly account: string;
  readonly arn: string;
}

export function callerIdentity(ctx: PreflightContext): Promise<Caller> {
  return once(ctx, 'caller', async () => {
    const out = await ctx.clients.sts().send(new GetCallerIdentityCommand({}));
    return { account: out.Account ?? '', arn: out.Arn ?? '' };
  });
}

/** A configured `modelId`: an inference profile (cross-Region or application) or a foundation model, as Bedrock says. */
export interface ResolvedModel {
  readonly modelId: string;
  readonly profile: GetInferenceProfileCommandOutput | null;
  /** The foundation model behind it (a profile's models are one model in several regions). */
  readonly foundationId: string;
  readonly details: FoundationModelDetails | null;
}

const FOUNDATION_ARN = /:foundation-model\/(.+)$/;

/**
 * Asks Bedrock (in config.bedrockRegion) whether the id is an inference profile, else reads it as a foundation model.
 * Null details = no such foundation model there.
 */
export function resolveModel(ctx: PreflightContext, modelId: string): Promise<ResolvedModel> {
  return once(ctx, `model:${modelId}`, async () => {
    const bedrock = ctx.clients.bedrock(ctx.config.bedrockRegion);
    let profile: GetInferenceProfileCommandOutput | null = null;
    try {
      profile = await bedrock.send(new GetInferenceProfileCommand({ inferenceProfileIdentifier: modelId }));
    } catch (e) {
      // A foundation model id is not a profile: Bedrock answers not found (or, for its pattern, a validation error).
      if (errorName(e) !== 'ResourceNotFoundException' && errorName(e) !== 'ValidationException') throw e;
    }
    const fromProfile = profile?.models?.map((m) => FOUNDATION_ARN.exec(m.modelArn ?? '')?.[1]).find(Boolean);
    const foundationId = fromProfile ?? modelId;
    let details: FoundationModelDetails | null = null;
    try {
      details =
        (await bedrock.send(new GetFoundationModelCommand({ modelIdentifier: foundationId }))).modelDetails ?? null;
    } catch (e) {
      if (errorName(e) !== 'ResourceNotFoundException' && errorName(e) !== 'ValidationException') throw e;
    }
    return { modelId, profile, foundationId, details };
  });
}

/** The distinct model ids the configured generative styles call, with the styles using each. */
export function configuredModels(ctx: PreflightContext): Map<string, string[]> {
  const models = new Map<string, string[]>();
  for (const [style, s] of Object.entries(ctx.config.generativeStyles)) {
    if (!s) continue;
    models.set(s.modelId, [...(models.get(s.modelId) ?? []), style]);
  }
  return models;
}

/**
 * Every quota of a service in a region: the applied values, and AWS's defaults for quotas that have no applied value
 * (ListServiceQuotas leaves those out).
 */
export function serviceQuotas(ctx: PreflightContext, serviceCode: string, region: string): Promise<ServiceQuota[]> {
  return once(ctx, `quotas:${serviceCode}:${region}`, async () => {
    const client = ctx.clients.quotas(region);
    const byCode = new Map<string, ServiceQuota>();
    for (const applied of [false, true]) {
      let NextToken: string | undefined;
      do {
        const page = applied
          ? await client.send(new ListServiceQuotasCommand({ ServiceCode: serviceCode, NextToken }))
          : await client.send(new ListAWSDefaultServiceQuotasCommand({ ServiceCode: serviceCode, NextToken }));
        // Defaults first, then the applied values replace them.
        for (const q of page.Quotas ?? []) if (q.QuotaCode) byCode.set(q.QuotaCode, q);
        NextToken = page.NextToken;
      } while (NextToken);
    }
    return [...byCode.values()];
  });
}

/** The fix line for raising a quota, with the exact command. */
export function quotaIncreaseFix(quota: ServiceQuota, desired: number, region: string): string {
  return (
    `request an increase of "${quota.QuotaName}" to at least ${desired}: aws service-quotas request-service-quota-increase ` +
    `--service-code ${quota.ServiceCode} --quota-code ${quota.QuotaCode} --desired-value ${desired} --region ${region}`
  );
}
