/**
 * Lambda's account concurrency in the app's region (GetAccountSettings) against what the stack needs at a busy
 * moment: every engine call and every Bedrock call holds one task function for its whole duration, and the API's
 * functions answer the status pages' polling beside them. New accounts get far less than AWS's default of 1,000.
 */
import { GetAccountSettingsCommand } from '@aws-sdk/client-lambda';
import { type Check, type PreflightContext, plannedBedrockRpm } from '../types';

/** Concurrent API invocations kept free for the routes (polling every 2 s at ~100 ms a call: hundreds of tabs). */
export const API_HEADROOM = 50;
/** A Bedrock image call holds its task for up to ~20 s: a minute's quota of calls is at most a third of that at once. */
const BEDROCK_CALLS_IN_FLIGHT_PER_RPM = 20 / 60;

export function lambdaConcurrencyNeeded(ctx: PreflightContext): number {
  const models = new Set(Object.values(ctx.config.generativeStyles).map((s) => s?.modelId)).size;
  const bedrock = Math.ceil(plannedBedrockRpm(ctx.config) * models * BEDROCK_CALLS_IN_FLIGHT_PER_RPM);
  return API_HEADROOM + ctx.config.engineMaxConcurrency + bedrock;
}

export const lambdaConcurrency: Check = {
  title: 'Lambda concurrency',
  needsAccount: true,
  async run(ctx) {
    const region = ctx.region!;
    const settings = await ctx.clients.lambda(region).send(new GetAccountSettingsCommand({}));
    const limit = settings.AccountLimit?.ConcurrentExecutions ?? 0;
    const unreserved = settings.AccountLimit?.UnreservedConcurrentExecutions ?? limit;
    const need = lambdaConcurrencyNeeded(ctx);
    const title = 'Lambda concurrent executions';
    if (unreserved >= need)
      return [{ status: 'pass', title, detail: `${unreserved} unreserved of ${limit} ≥ ${need} the stack needs` }];
    return [
      {
        status: 'fail',
        title,
        detail: `${unreserved} unreserved of ${limit} < ${need} the stack needs at a busy moment: tasks would be throttled`,
        fix:
          `aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 ` +
          `--desired-value ${Math.max(1000, need)} --region ${region}`,
      },
    ];
  },
};
