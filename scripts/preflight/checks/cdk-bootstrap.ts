/**
 * CDK bootstrap in both regions the app deploys to: the app's region and us-east-1 (the WAF stack). cdk deploy reads
 * the bootstrap version from SSM; the synthesized templates' CheckBootstrapVersion rule refuses versions 1 to 5.
 */
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { DefaultStackSynthesizer } from 'aws-cdk-lib';
import { EDGE_REGION } from '../../../lib/edge';
import { callerIdentity } from '../aws-lookups';
import { type Check, errorName, type Finding, type PreflightContext } from '../types';

export const MIN_BOOTSTRAP_VERSION = 6;
/** CDK's parameter name with its default qualifier filled in (the name holds a literal `${Qualifier}`). */
const PARAMETER = DefaultStackSynthesizer.DEFAULT_BOOTSTRAP_STACK_VERSION_SSM_PARAMETER.replace(
  /\$\{Qualifier\}/,
  DefaultStackSynthesizer.DEFAULT_QUALIFIER,
);

export const cdkBootstrap: Check = {
  title: 'CDK bootstrap',
  needsAccount: true,
  async run(ctx) {
    const regions = [...new Set([ctx.region!, EDGE_REGION])];
    return Promise.all(regions.map((region) => bootstrapFinding(ctx, region)));
  },
};

async function bootstrapFinding(ctx: PreflightContext, region: string): Promise<Finding> {
  const title = `CDK bootstrap ${region}`;
  const { account } = await callerIdentity(ctx);
  const fix = `npx cdk bootstrap aws://${account}/${region}`;
  try {
    const out = await ctx.clients.ssm(region).send(new GetParameterCommand({ Name: PARAMETER }));
    const version = Number(out.Parameter?.Value);
    return version >= MIN_BOOTSTRAP_VERSION
      ? { status: 'pass', title, detail: `bootstrap version ${version}` }
      : {
          status: 'fail',
          title,
          detail: `bootstrap version ${out.Parameter?.Value}, the stacks need ${MIN_BOOTSTRAP_VERSION} or later`,
          fix,
        };
  } catch (e) {
    if (errorName(e) !== 'ParameterNotFound') throw e;
    return { status: 'fail', title, detail: `not bootstrapped (no SSM parameter ${PARAMETER})`, fix };
  }
}
