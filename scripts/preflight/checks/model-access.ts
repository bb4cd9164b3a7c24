/**
 * Model access and the AWS Marketplace subscription of each configured model (GetFoundationModelAvailability).
 *
 * AWS's "Request access to models" page: the first invocation of a third-party model in an account starts its
 * Marketplace subscription, if the invoking role holds MARKETPLACE_SUBSCRIBE_ACTIONS. The rendering functions do not
 * (lib/bedrock-access.ts: they decode attacker-supplied images, and Subscribe has no resource scope), so the operator
 * subscribes once, before the first deploy. Subscribed passes; being finalised is a warning; not subscribed, or a
 * failed attempt, is a failure whose fix says how.
 */
import { GetFoundationModelAvailabilityCommand } from '@aws-sdk/client-bedrock';
import { GetRoleCommand, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { MARKETPLACE_SUBSCRIBE_ACTIONS } from '../../../lib/bedrock-access';
import { callerIdentity, configuredModels, resolveModel } from '../aws-lookups';
import { type Check, describeError, type Finding, type PreflightContext } from '../types';

export const modelAccess: Check = {
  title: 'Bedrock model access (Marketplace subscription)',
  needsAccount: true,
  async run(ctx) {
    const out: Finding[] = [];
    const foundations = new Map<string, string>();
    for (const modelId of configuredModels(ctx).keys()) {
      const model = await resolveModel(ctx, modelId);
      if (model.details) foundations.set(model.foundationId, model.details.providerName ?? 'its provider');
    }
    for (const [foundationId, provider] of foundations) out.push(await accessFinding(ctx, foundationId, provider));
    return out;
  },
};

async function accessFinding(ctx: PreflightContext, modelId: string, provider: string): Promise<Finding> {
  const region = ctx.config.bedrockRegion;
  const title = `Model access ${modelId}`;
  const a = await ctx.clients.bedrock(region).send(new GetFoundationModelAvailabilityCommand({ modelId }));
  if (a.regionAvailability === 'NOT_AVAILABLE')
    return {
      status: 'fail',
      title,
      detail: `not offered in ${region}`,
      fix: 'choose another -c bedrockRegion (docs/bedrock.md)',
    };
  if (a.authorizationStatus === 'NOT_AUTHORIZED')
    return {
      status: 'fail',
      title,
      detail: 'not authorized for this account (an organisation policy or a withdrawn access)',
      fix: 'ask the organisation admin to allow the model (Service Control Policies on bedrock:InvokeModel)',
    };
  const agreement = a.agreementAvailability?.status;
  if (agreement === 'AVAILABLE' && a.entitlementAvailability !== 'NOT_AVAILABLE')
    return { status: 'pass', title, detail: `${provider} model subscribed and available in ${region}` };
  if (agreement === 'PENDING')
    return {
      status: 'warn',
      title,
      detail: 'the Marketplace subscription is being finalised (AWS: up to 15 minutes)',
      fix: 'run the preflight again in a few minutes',
    };
  const failed = agreement === 'ERROR';
  const subscribe =
    `aws bedrock list-foundation-model-agreement-offers --model-id ${modelId} --region ${region}, then ` +
    `aws bedrock create-foundation-model-agreement --model-id ${modelId} --offer-token <offerToken> --region ${region} ` +
    '(or open the model in the Bedrock console playground and accept the offer)';
  const may = await callerMaySubscribe(ctx);
  const who =
    may === true
      ? `you may subscribe now (you hold ${MARKETPLACE_SUBSCRIBE_ACTIONS.join(', ')})`
      : `a principal with ${MARKETPLACE_SUBSCRIBE_ACTIONS.join(', ')} subscribes` +
        (may === false ? ' (yours lacks them)' : ` (could not simulate your permissions: ${may})`);
  return {
    status: 'fail',
    title,
    detail: failed
      ? `the Marketplace subscription failed: ${a.agreementAvailability?.errorMessage ?? 'no reason given'}; every call is denied`
      : `${provider} model not subscribed: the functions may not subscribe (no Marketplace actions), so every call is denied until you do`,
    fix: `${failed ? 'give the account a valid payment method for Marketplace purchases; then ' : ''}${who}: ${subscribe}`,
  };
}

/** Whether the caller may subscribe, by IAM's policy simulator; a string says why it could not be told. */
async function callerMaySubscribe(ctx: PreflightContext): Promise<boolean | string> {
  try {
    const { arn } = await callerIdentity(ctx);
    if (/:root$/.test(arn)) return true;
    const source = await principalArn(ctx, arn);
    const out = await ctx.clients.iam().send(
      new SimulatePrincipalPolicyCommand({
        PolicySourceArn: source,
        ActionNames: [...MARKETPLACE_SUBSCRIBE_ACTIONS],
      }),
    );
    const results = out.EvaluationResults ?? [];
    return MARKETPLACE_SUBSCRIBE_ACTIONS.every((action) =>
      results.some((r) => r.EvalActionName === action && r.EvalDecision === 'allowed'),
    );
  } catch (e) {
    return describeError(e);
  }
}

/** The IAM user or role behind a caller ARN (an assumed-role session names its role without the role's path). */
async function principalArn(ctx: PreflightContext, arn: string): Promise<string> {
  const session = /^arn:[^:]+:sts::\d+:assumed-role\/([^/]+)\//.exec(arn);
  if (!session) return arn;
  const role = await ctx.clients.iam().send(new GetRoleCommand({ RoleName: session[1] }));
  return role.Role?.Arn ?? arn;
}
