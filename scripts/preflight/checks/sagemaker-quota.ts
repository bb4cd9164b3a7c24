/**
 * The engine's serverless endpoint against SageMaker's account-wide serverless concurrency (service quota
 * L-96300102, "Maximum total concurrency that can be allocated across all serverless endpoints"; reported at 10 on
 * new accounts). Every serverless endpoint in the region counts, so the other environments' endpoints (found with
 * ListEndpoints/DescribeEndpoint, told apart by the stack-name tag CloudFormation puts on them) are added to ours.
 */
import { DescribeEndpointCommand, ListEndpointsCommand, ListTagsCommand } from '@aws-sdk/client-sagemaker';
import {
  GetAWSDefaultServiceQuotaCommand,
  GetServiceQuotaCommand,
  type ServiceQuota,
} from '@aws-sdk/client-service-quotas';
import { quotaIncreaseFix, serviceQuotas } from '../aws-lookups';
import { type Check, errorName, type Finding, type PreflightContext, stackName } from '../types';

export const SERVERLESS_CONCURRENCY_QUOTA = 'L-96300102';

interface OtherEndpoint {
  readonly name: string;
  readonly max: number;
  readonly provisioned: number;
}

export const sagemakerQuota: Check = {
  title: 'SageMaker serverless concurrency',
  needsAccount: true,
  async run(ctx) {
    const region = ctx.region!;
    const ours = ctx.config.engineMaxConcurrency;
    const others = await otherServerlessEndpoints(ctx, region);
    const quota = await concurrencyQuota(ctx, region);
    const out: Finding[] = [];
    const othersMax = others.reduce((n, e) => n + e.max, 0);
    const need = ours + othersMax;
    const shared = others.length
      ? ` + ${othersMax} of ${others.map((e) => `${e.name} (${e.max})`).join(', ')}`
      : ' (no other serverless endpoint here)';
    const value = quota.Value ?? 0;
    out.push(
      value >= need
        ? {
            status: 'pass',
            title: 'SageMaker serverless concurrency',
            detail: `quota ${value} ≥ ${ours} for the engine${shared}`,
          }
        : {
            status: 'fail',
            title: 'SageMaker serverless concurrency',
            detail: `quota ${value} < ${need}: ${ours} for the engine${shared}; the endpoint would fail to create`,
            fix: `${quotaIncreaseFix(quota, need, region)} (or a lower -c engineMaxConcurrency)`,
          },
    );
    const provisioned = ctx.config.engineProvisionedConcurrency;
    if (provisioned > 0) out.push(await provisionedFinding(ctx, region, provisioned, others));
    return out;
  },
};

async function concurrencyQuota(ctx: PreflightContext, region: string): Promise<ServiceQuota> {
  const client = ctx.clients.quotas(region);
  const input = { ServiceCode: 'sagemaker', QuotaCode: SERVERLESS_CONCURRENCY_QUOTA };
  try {
    return (await client.send(new GetServiceQuotaCommand(input))).Quota ?? {};
  } catch (e) {
    // No applied value in this account: AWS's default applies.
    if (errorName(e) !== 'NoSuchResourceException') throw e;
    return (await client.send(new GetAWSDefaultServiceQuotaCommand(input))).Quota ?? {};
  }
}

async function provisionedFinding(
  ctx: PreflightContext,
  region: string,
  provisioned: number,
  others: OtherEndpoint[],
): Promise<Finding> {
  const title = 'SageMaker serverless provisioned concurrency';
  // Matched by its words: AWS documents no code for it that we could confirm.
  const quota = (await serviceQuotas(ctx, 'sagemaker', region)).find(
    (q) => /provisioned concurrency/i.test(q.QuotaName ?? '') && /serverless/i.test(q.QuotaName ?? ''),
  );
  if (!quota)
    return {
      status: 'warn',
      title,
      detail: `no serverless provisioned-concurrency quota listed in ${region}`,
      fix: 'look it up in the Service Quotas console (Amazon SageMaker) before launch',
    };
  const need = provisioned + others.reduce((n, e) => n + e.provisioned, 0);
  const value = quota.Value ?? 0;
  return value >= need
    ? { status: 'pass', title, detail: `quota ${value} ≥ ${need} (${provisioned} for the engine)` }
    : {
        status: 'fail',
        title,
        detail: `quota ${value} < ${need} (${provisioned} for the engine)`,
        fix: `${quotaIncreaseFix(quota, need, region)} (or a lower -c engineProvisionedConcurrency)`,
      };
}

/** Serverless endpoints in the region other than this environment's own (which a deploy replaces). */
async function otherServerlessEndpoints(ctx: PreflightContext, region: string): Promise<OtherEndpoint[]> {
  const client = ctx.clients.sagemaker(region);
  const found: OtherEndpoint[] = [];
  let NextToken: string | undefined;
  do {
    const page = await client.send(new ListEndpointsCommand({ NextToken }));
    for (const e of page.Endpoints ?? []) {
      if (!e.EndpointName) continue;
      const d = await client.send(new DescribeEndpointCommand({ EndpointName: e.EndpointName }));
      const serverless = (d.ProductionVariants ?? []).map((v) => v.CurrentServerlessConfig).filter((c) => c);
      if (!serverless.length) continue;
      const tags = await client.send(new ListTagsCommand({ ResourceArn: e.EndpointArn }));
      const stack = tags.Tags?.find((t) => t.Key === 'aws:cloudformation:stack-name')?.Value;
      if (stack === stackName(ctx.config)) continue;
      found.push({
        name: e.EndpointName,
        max: serverless.reduce((n, c) => n + (c?.MaxConcurrency ?? 0), 0),
        provisioned: serverless.reduce((n, c) => n + (c?.ProvisionedConcurrency ?? 0), 0),
      });
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return found;
}
