/** Credentials (STS GetCallerIdentity) and a concrete region for the app's stack: everything else needs both. */
import { callerIdentity } from '../aws-lookups';
import { type Check, describeError, type Finding } from '../types';

export const identity: Check = {
  title: 'Credentials and region',
  needsAccount: false,
  gate: true,
  async run(ctx) {
    const out: Finding[] = [];
    try {
      const caller = await callerIdentity(ctx);
      out.push({ status: 'pass', title: 'AWS credentials', detail: `account ${caller.account} as ${caller.arn}` });
    } catch (e) {
      out.push({
        status: 'fail',
        title: 'AWS credentials',
        detail: `STS GetCallerIdentity failed: ${describeError(e)}`,
        fix: 'sign in to the target account: `aws sso login --profile <name>` then `export AWS_PROFILE=<name>` (or `aws configure`)',
      });
    }
    if (ctx.region) {
      out.push({
        status: 'pass',
        title: 'Region',
        detail: `app stack in ${ctx.region}, WAF stack in us-east-1, Bedrock calls in ${ctx.config.bedrockRegion}`,
      });
    } else {
      out.push({
        status: 'fail',
        title: 'Region',
        detail: 'no region: the app stack references its us-east-1 web ACL across regions, so it needs a concrete one',
        fix: 'export AWS_REGION=<region> (or CDK_DEFAULT_REGION, or set `region` in your AWS profile)',
      });
    }
    return out;
  },
};
