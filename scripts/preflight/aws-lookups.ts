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
import { parseModelId } from '../../domain/generative';
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
  /** What the id names by its form (domain/generative.ts's parseModelId). */
  readonly kind: 'profile' | 'foundation';
  /** The profile as Bedrock describes it; null for a foundation model or a profile Bedrock does not know. */
  readonly profile: GetInferenceProfileCommandOutput | null;
  /** The foundation model behind it (a profile's models are one model in several regions). */
  readonly foundationId: string;
  /** Null = no such foundation model in the region. */
  readonly details: FoundationModelDetails | null;
}

const FOUNDATION_ARN = /:foundation-model\/(.+)$/;

/** Reads a configured model id in config.bedrockRegion: its profile (if it names one) and its foundation model. */
export function resolveModel(ctx: PreflightContext, modelId: string): Promise<ResolvedModel> {
  return once(ctx, `model:${modelId}`, async () => {
    const bedrock = ctx.clients.bedrock(ctx.config.bedrockRegion);
    const ref = parseModelId(modelId);
    const kind = ref && ref.kind !== 'foundation-model' ? 'profile' : 'foundation';
    let profile: GetInferenceProfileCommandOutput | null = null;
    if (kind === 'profile')
      profile = await notFoundAsNull(
        bedrock.send(new GetInferenceProfileCommand({ inferenceProfileIdentifier: modelId })),
      );
    const fromProfile = profile?.models?.map((m) => FOUNDATION_ARN.exec(m.modelArn ?? '')?.[1]).find(Boolean);
    const foundationId = fromProfile ?? (ref?.kind === 'inference-profile' ? ref.foundationModel : modelId);
    const model = await notFoundAsNull(bedrock.send(new GetFoundationModelCommand({ modelIdentifier: foundationId })));
    return { modelId, kind, profile, foundationId, details: model?.modelDetails ?? null };
  });
}

/** Bedrock's answer, or null when it says there is no such thing (not found, or an id it cannot hold). */
async function notFoundAsNull<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (e) {
    if (errorName(e) === 'ResourceNotFoundException' || errorName(e) === 'ValidationException') return null;
    throw e;
  }
}

/**
 * The distinct model ids the app calls, with what uses each: the generative styles, and the upscale service
 * (`bedrockUpscaleModelId`, named "upscale") when set, so its access, profile and quota are checked as theirs.
 */
export function configuredModels(ctx: PreflightContext): Map<string, string[]> {
  const models = new Map<string, string[]>();
  const uses: [string, string | undefined][] = Object.entries(ctx.config.generativeStyles).map(([style, s]) => [
    style,
    s?.modelId,
  ]);
  if (ctx.config.bedrockUpscaleModelId && uses.length) uses.push(['upscale', ctx.config.bedrockUpscaleModelId]);
  for (const [use, modelId] of uses) if (modelId) models.set(modelId, [...(models.get(modelId) ?? []), use]);
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
