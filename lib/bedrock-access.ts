import type { EnvConfig } from './config';

/** Cross-region inference profile ids start with a geography (e.g. `us.stability...`); plain ids are foundation models. */
const PROFILE_PREFIX = /^(us|eu|apac|jp|au|ca|us-gov|global)\./;

/**
 * The ARNs `bedrock:InvokeModel` is granted on: each configured model's foundation-model ARN in the Bedrock region,
 * or, for an inference profile, the profile's ARN plus its foundation model in every region the profile routes to.
 * Nothing else: a function may call exactly the models the configuration names.
 */
export function bedrockModelArns(
  config: Pick<EnvConfig, 'generativeStyles' | 'bedrockRegion' | 'bedrockProfileRegions'>,
  account: string,
  partition = 'aws',
): string[] {
  const arns = new Set<string>();
  for (const s of Object.values(config.generativeStyles)) {
    if (!s) continue;
    const profile = PROFILE_PREFIX.exec(s.modelId);
    if (!profile) {
      arns.add(`arn:${partition}:bedrock:${config.bedrockRegion}::foundation-model/${s.modelId}`);
      continue;
    }
    arns.add(`arn:${partition}:bedrock:${config.bedrockRegion}:${account}:inference-profile/${s.modelId}`);
    const base = s.modelId.slice(profile[0].length);
    for (const region of config.bedrockProfileRegions)
      arns.add(`arn:${partition}:bedrock:${region}::foundation-model/${base}`);
  }
  return [...arns].sort();
}
