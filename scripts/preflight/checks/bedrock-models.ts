/**
 * Each configured generative model id can be invoked as configured, in config.bedrockRegion: an inference profile is
 * ACTIVE and routes only to regions the IAM grant covers (bedrockProfileRegions); a plain foundation-model id supports
 * on-demand calls (a profile-only model answers every on-demand call with ValidationException: all refunded).
 */
import { type BedrockClient, ListInferenceProfilesCommand } from '@aws-sdk/client-bedrock';
import { inferenceProfileId } from '../../../domain/generative';
import { configuredModels, type ResolvedModel, resolveModel } from '../aws-lookups';
import type { Check, Finding, PreflightContext } from '../types';

export const bedrockModels: Check = {
  title: 'Bedrock models and inference profiles',
  needsAccount: true,
  async run(ctx) {
    const out: Finding[] = [];
    for (const [modelId, styles] of configuredModels(ctx)) {
      const title = `Bedrock model ${modelId} (${styles.join(', ')})`;
      const model = await resolveModel(ctx, modelId);
      out.push(
        model.kind === 'profile'
          ? profileFinding(ctx, title, model)
          : await foundationFinding(ctx, title, model, styles),
      );
      const lifecycle = model.details?.modelLifecycle?.status;
      if (lifecycle && lifecycle !== 'ACTIVE')
        out.push({
          status: 'warn',
          title: `${title} lifecycle`,
          detail: `${model.foundationId} is ${lifecycle}: AWS will end it (see the Bedrock "Model lifecycle" page)`,
          fix: 'pick an ACTIVE model in -c generativeSettings (docs/bedrock.md)',
        });
    }
    if (out.length === 0)
      out.push({ status: 'pass', title: 'Bedrock models', detail: 'no generative styles configured: nothing to call' });
    return out;
  },
};

function profileFinding(ctx: PreflightContext, title: string, model: ResolvedModel): Finding {
  const profile = model.profile;
  if (!profile)
    return {
      status: 'fail',
      title,
      detail: `no such inference profile in ${ctx.config.bedrockRegion}`,
      fix: `name one that exists: aws bedrock list-inference-profiles --region ${ctx.config.bedrockRegion}`,
    };
  if (profile.status !== 'ACTIVE')
    return {
      status: 'fail',
      title,
      detail: `inference profile ${profile.inferenceProfileId} is ${profile.status}`,
      fix: `name an ACTIVE profile: aws bedrock list-inference-profiles --region ${ctx.config.bedrockRegion}`,
    };
  const regions = [...new Set((profile.models ?? []).map((m) => (m.modelArn ?? '').split(':')[3]).filter(Boolean))];
  const ungranted = regions.filter((r) => !ctx.config.bedrockProfileRegions.includes(r));
  if (ungranted.length)
    return {
      status: 'fail',
      title,
      detail: `the profile routes to ${regions.join(', ')}; IAM grants the model only in ${ctx.config.bedrockProfileRegions.join(', ')}, so calls routed to ${ungranted.join(', ')} are denied`,
      fix: `deploy with -c bedrockProfileRegions=${regions.join(',')}`,
    };
  if (!model.details)
    return {
      status: 'fail',
      title,
      detail: `the profile's foundation model ${model.foundationId} is not offered in ${ctx.config.bedrockRegion}`,
      fix: 'choose another -c bedrockRegion (docs/bedrock.md)',
    };
  return { status: 'pass', title, detail: `inference profile ACTIVE, routes to ${regions.join(', ')}` };
}

async function foundationFinding(
  ctx: PreflightContext,
  title: string,
  model: ResolvedModel,
  styles: string[],
): Promise<Finding> {
  const region = ctx.config.bedrockRegion;
  if (!model.details)
    return {
      status: 'fail',
      title,
      detail: `neither an inference profile nor a foundation model in ${region}`,
      fix: `check the id: aws bedrock list-foundation-models --region ${region} (or choose another -c bedrockRegion)`,
    };
  const types = model.details.inferenceTypesSupported ?? [];
  if (types.includes('ON_DEMAND'))
    return { status: 'pass', title, detail: `foundation model, on-demand calls supported in ${region}` };
  const profiles = await profilesFor(ctx.clients.bedrock(region), model.foundationId);
  const own = inferenceProfileIdOrNull(model.foundationId, region);
  const suggestion = profiles.find((p) => p === own) ?? profiles[0];
  return {
    status: 'fail',
    title,
    detail: `supports only ${types.join(', ') || 'no'} inference: Bedrock refuses on-demand calls of this id with ValidationException`,
    fix: suggestion
      ? `call it through inference profile ${suggestion}: -c generativeSettings='${JSON.stringify(Object.fromEntries(styles.map((st) => [st, { modelId: suggestion }])))}'`
      : `no inference profile in ${region} contains it: choose another model or -c bedrockRegion`,
  };
}

/** System-defined inference profiles (in the client's region) that contain the foundation model. */
async function profilesFor(bedrock: BedrockClient, foundationId: string): Promise<string[]> {
  const ids: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await bedrock.send(new ListInferenceProfilesCommand({ typeEquals: 'SYSTEM_DEFINED', nextToken }));
    for (const p of page.inferenceProfileSummaries ?? [])
      if (p.inferenceProfileId && p.models?.some((m) => m.modelArn?.endsWith(`/${foundationId}`)))
        ids.push(p.inferenceProfileId);
    nextToken = page.nextToken;
  } while (nextToken);
  return ids;
}

/** The region's own cross-Region profile id for the model (domain/generative.ts), or null for a region without one. */
function inferenceProfileIdOrNull(foundationId: string, region: string): string | null {
  try {
    return inferenceProfileId(foundationId, region);
  } catch {
    return null;
  }
}
