/**
 * Bedrock's per-model requests-per-minute quota (Service Quotas, service `bedrock`, in config.bedrockRegion) against
 * what the configuration plans to send. Quota names follow AWS's pattern "On-demand InvokeModel requests per minute for
 * ${model}" and "Cross-Region InvokeModel requests per minute for ${model}" (a call through a profile counts there).
 */
import type { ServiceQuota } from '@aws-sdk/client-service-quotas';
import { configuredModels, quotaIncreaseFix, resolveModel, serviceQuotas } from '../aws-lookups';
import { type Check, type Finding, plannedBedrockRpm } from '../types';

export const bedrockQuota: Check = {
  title: 'Bedrock requests per minute',
  needsAccount: true,
  async run(ctx) {
    const region = ctx.config.bedrockRegion;
    const planned = plannedBedrockRpm(ctx.config);
    const out: Finding[] = [];
    for (const modelId of configuredModels(ctx).keys()) {
      const model = await resolveModel(ctx, modelId);
      const name = model.details?.modelName;
      const title = `Bedrock quota ${modelId}`;
      // bedrock-models already fails an unknown model, and a profile-only model called by its plain id.
      if (!name) continue;
      if (model.kind === 'foundation' && !model.details?.inferenceTypesSupported?.includes('ON_DEMAND')) continue;
      const quota = findRpmQuota(await serviceQuotas(ctx, 'bedrock', region), name, model.kind === 'profile');
      if (!quota) {
        out.push({
          status: 'warn',
          title,
          detail: `no "${model.kind === 'profile' ? 'Cross-Region' : 'On-demand'} InvokeModel requests per minute for ${name}" quota listed in ${region}`,
          fix: `look it up in the Service Quotas console (Amazon Bedrock, ${region}) before launch`,
        });
        continue;
      }
      const value = quota.Value ?? 0;
      const need = Math.max(1, planned);
      if (value < need)
        out.push({
          status: 'fail',
          title,
          detail:
            value === 0
              ? `"${quota.QuotaName}" is 0 in this account: every call would be throttled`
              : `"${quota.QuotaName}" is ${value}, the configuration plans ${need} per minute`,
          // The admission control can pace the app to a smaller quota (at least 1 a minute).
          fix: quotaIncreaseFix(quota, need, region) + (value >= 1 ? ` (or -c bedrockRequestsPerMinute=${value})` : ''),
        });
      else
        out.push({
          status: 'pass',
          title,
          detail:
            `${value} requests per minute` +
            (planned ? `, the configuration plans ${planned}` : ' (the configuration sets no rate of its own)'),
        });
    }
    return out;
  },
};

function findRpmQuota(quotas: ServiceQuota[], modelName: string, crossRegion: boolean): ServiceQuota | undefined {
  const kind = crossRegion
    ? /^cross-region invokemodel requests per minute for /i
    : /^on-demand invokemodel requests per minute for /i;
  const model = modelName.toLowerCase();
  return quotas.find((q) => kind.test(q.QuotaName ?? '') && (q.QuotaName ?? '').toLowerCase().endsWith(model));
}
