import type { App, Environment } from 'aws-cdk-lib';
import type { EnvConfig } from './config';
import { EDGE_REGION, EdgeStack } from './edge';
import { ToonZapStack } from './toonzap-stack';

/**
 * The deployable app: the edge stack (WAF web ACL, us-east-1) and the app's stack (any region), which references
 * the ACL's ARN across regions. `cdk deploy -c env=prod` deploys both; bin/app.ts and the tests build it here.
 */
export function buildToonZap(app: App, config: EnvConfig, env: Environment): { edge: EdgeStack; main: ToonZapStack } {
  if (!env.region) {
    throw new Error(
      'The app needs a concrete region (CDK_DEFAULT_REGION or AWS_REGION): its web ACL is made in us-east-1 and referenced from it',
    );
  }
  const edge = new EdgeStack(app, `ToonZap-${config.envName}-edge`, {
    config,
    env: { account: env.account, region: EDGE_REGION },
    crossRegionReferences: true,
    description: `ToonZap ${config.envName}: CloudFront web ACL (must be in ${EDGE_REGION})`,
  });
  const main = new ToonZapStack(app, `ToonZap-${config.envName}`, {
    config,
    env,
    crossRegionReferences: env.region !== EDGE_REGION,
    webAclArn: edge.webAclArn,
    description: `ToonZap photo-to-cartoon app (${config.envName})`,
  });
  return { edge, main };
}
