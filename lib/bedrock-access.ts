import { CONTROL_STRUCTURE_MODEL_ID, parseModelId, profileGeography } from '../domain/generative';
import type { EnvConfig } from './config';

/**
 * The ARNs `bedrock:InvokeModel` is granted on, for each configured model id (domain/generative.ts parseModelId):
 *  - a cross-Region inference profile (`us.<model>`): the profile's ARN in the Bedrock region plus its foundation
 *    model in every region the profile routes to (`bedrockProfileRegions`), as AWS requires for a profile;
 *  - an application inference profile ARN: that ARN, plus the system profile and foundation-model ARNs of the
 *    model the code speaks to (Stable Image Control Structure: the only request body it writes), since Bedrock
 *    checks the call against the resolved profile and model too;
 *  - a plain foundation model id: its ARN in the Bedrock region.
 * The upscale service (`bedrockUpscaleModelId`), when set and a style is generative, is granted the same way.
 * Nothing else: a function may call exactly the models the configuration names.
 */
export function bedrockModelArns(
  config: Pick<EnvConfig, 'generativeStyles' | 'bedrockRegion' | 'bedrockProfileRegions'> &
    Partial<Pick<EnvConfig, 'bedrockUpscaleModelId'>>,
  account: string,
  partition = 'aws',
): string[] {
  const arns = new Set<string>();
  const profileArns = (geography: string, foundationModel: string) => {
    for (const region of config.bedrockProfileRegions) {
      if (geography !== 'global' && profileGeography(region) !== geography)
        throw new Error(
          `bedrockProfileRegions has ${region}, outside the ${geography}. inference profile's geography: set -c bedrockProfileRegions to the regions that profile routes to`,
        );
      arns.add(`arn:${partition}:bedrock:${region}::foundation-model/${foundationModel}`);
    }
    arns.add(
      `arn:${partition}:bedrock:${config.bedrockRegion}:${account}:inference-profile/${geography}.${foundationModel}`,
    );
  };
  const ids = Object.values(config.generativeStyles).map((s) => s?.modelId);
  // The upscale service only enlarges generative images: with no generative style it is never called.
  const upscale = config.bedrockUpscaleModelId && ids.length ? [config.bedrockUpscaleModelId] : [];
  for (const id of [...ids, ...upscale]) {
    if (!id) continue;
    const ref = parseModelId(id);
    if (!ref) throw new Error(`Model id "${id}" is neither a foundation model, nor an inference profile`);
    if (ref.kind === 'foundation-model')
      arns.add(`arn:${partition}:bedrock:${config.bedrockRegion}::foundation-model/${ref.modelId}`);
    else if (ref.kind === 'inference-profile') profileArns(ref.geography, ref.foundationModel);
    else {
      arns.add(ref.arn);
      profileArns(profileGeography(config.bedrockRegion), CONTROL_STRUCTURE_MODEL_ID);
    }
  }
  return [...arns].sort();
}

/**
 * AWS Marketplace actions that subscribe an account to a third-party model (Stability AI's): Bedrock subscribes on the
 * first invocation by a caller holding them (Bedrock user guide, "Access Amazon Bedrock foundation models"). They
 * support no resource-level permissions, so a role holding them could subscribe the account to any Marketplace
 * product: no function holds them (the rendering functions decode attacker-supplied images). The operator subscribes
 * once, with these, before the first deploy; preflight (scripts/preflight/checks/model-access.ts) fails until then.
 */
export const MARKETPLACE_SUBSCRIBE_ACTIONS = ['aws-marketplace:ViewSubscriptions', 'aws-marketplace:Subscribe'];
