/**
 * `npm run preflight`: the account checks (credentials, bootstrap, SES, SageMaker, Lambda, Docker) passing and failing
 * with the fix they print, and the run and report over the whole list.
 */
import { GetFoundationModelAvailabilityCommand } from '@aws-sdk/client-bedrock';
import { GetAccountSettingsCommand } from '@aws-sdk/client-lambda';
import { DescribeEndpointCommand, ListEndpointsCommand, ListTagsCommand } from '@aws-sdk/client-sagemaker';
import {
  GetAWSDefaultServiceQuotaCommand,
  GetServiceQuotaCommand,
  ListAWSDefaultServiceQuotasCommand,
  ListServiceQuotasCommand,
} from '@aws-sdk/client-service-quotas';
import { GetAccountCommand, GetEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { parseContextArgs } from '../../../scripts/preflight/args';
import { CHECKS } from '../../../scripts/preflight/checks';
import { cdkBootstrap } from '../../../scripts/preflight/checks/cdk-bootstrap';
import { docker } from '../../../scripts/preflight/checks/docker';
import { identity } from '../../../scripts/preflight/checks/identity';
import { lambdaConcurrency } from '../../../scripts/preflight/checks/lambda-concurrency';
import { SERVERLESS_CONCURRENCY_QUOTA, sagemakerQuota } from '../../../scripts/preflight/checks/sagemaker-quota';
import { ses } from '../../../scripts/preflight/checks/ses';
import { formatReport } from '../../../scripts/preflight/report';
import { exitCodeOf, runChecks } from '../../../scripts/preflight/run';
import type { Check, DockerProbe } from '../../../scripts/preflight/types';

import {
  ACCOUNT,
  awsError,
  bedrock,
  bedrockWithProfile,
  ctx,
  dockerOk,
  lambda,
  mockAccountPerTest,
  only,
  PROFILE,
  prodConfig,
  quotas,
  sagemaker,
  sesv2,
  ssm,
  sts,
} from './mock-account';

mockAccountPerTest();

describe('credentials and region', () => {
  it('passes with the caller and a concrete region', async () => {
    const findings = await identity.run(ctx(prodConfig(PROFILE)));
    expect(findings.map((f) => f.status)).toEqual(['pass', 'pass']);
    expect(findings[0].detail).toContain(ACCOUNT);
  });

  it('fails without credentials or region, and the account checks are skipped', async () => {
    sts.on(GetCallerIdentityCommand).rejects(awsError('CredentialsProviderError', 'Could not load credentials'));
    const findings = await runChecks(ctx(prodConfig(PROFILE), { region: null }), [identity, ses, docker]);
    expect(findings.map((f) => [f.title, f.status])).toEqual([
      ['AWS credentials', 'fail'],
      ['Region', 'fail'],
      [ses.title, 'skip'],
      ['Docker (engine image)', 'pass'],
    ]);
    expect(findings[0].fix).toContain('aws sso login');
    expect(findings[1].fix).toContain('AWS_REGION');
    expect(sesv2.calls()).toHaveLength(0);
    expect(exitCodeOf(findings)).toBe(1);
  });
});

describe('CDK bootstrap', () => {
  /** SSM answering the bootstrap version per region (undefined: not bootstrapped there). */
  const bootstrapped = (versions: Record<string, string | undefined>) =>
    ssm.on(GetParameterCommand, { Name: '/cdk-bootstrap/hnb659fds/version' }).callsFake(async (_input, getClient) => {
      const version = versions[await getClient().config.region()];
      if (version === undefined) throw awsError('ParameterNotFound');
      return { Parameter: { Name: '/cdk-bootstrap/hnb659fds/version', Value: version } };
    });

  it('passes both the app region and us-east-1 (the WAF stack)', async () => {
    bootstrapped({ 'eu-west-1': '30', 'us-east-1': '30' });
    const findings = await cdkBootstrap.run(ctx(prodConfig(PROFILE)));
    expect(findings.map((f) => [f.title, f.status])).toEqual([
      ['CDK bootstrap eu-west-1', 'pass'],
      ['CDK bootstrap us-east-1', 'pass'],
    ]);
  });

  it('fails a region never bootstrapped, or bootstrapped too long ago, with the command', async () => {
    bootstrapped({ 'eu-west-1': '5' });
    const [app, edge] = await cdkBootstrap.run(ctx(prodConfig(PROFILE)));
    expect(app).toMatchObject({ status: 'fail', fix: `npx cdk bootstrap aws://${ACCOUNT}/eu-west-1` });
    expect(app.detail).toContain('version 5');
    expect(edge).toMatchObject({ status: 'fail', fix: `npx cdk bootstrap aws://${ACCOUNT}/us-east-1` });
  });
});

describe('SES production access and sender', () => {
  it('passes an account out of the sandbox with the sender domain verified', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
    sesv2.on(GetEmailIdentityCommand, { EmailIdentity: 'orders@toonzap.com' }).rejects(awsError('NotFoundException'));
    sesv2.on(GetEmailIdentityCommand, { EmailIdentity: 'toonzap.com' }).resolves({ VerifiedForSendingStatus: true });
    const findings = await ses.run(ctx(prodConfig(PROFILE)));
    expect(findings.map((f) => f.status)).toEqual(['pass', 'pass', 'pass']);
    expect(findings[2].detail).toBe('identity toonzap.com verified');
    expect(sesv2.commandCalls(GetAccountCommand)).toHaveLength(1);
    expect(await sesv2.call(0).thisValue.config.region()).toBe('eu-west-1');
  });

  it('fails the sandbox, paused sending and an unknown sender, each with its fix', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: false });
    sesv2.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException'));
    const [sandbox, sending, sender] = await ses.run(ctx(prodConfig(PROFILE)));
    expect(sandbox.status).toBe('fail');
    expect(sandbox.fix).toContain('aws sesv2 put-account-details --production-access-enabled');
    expect(sending.status).toBe('fail');
    expect(sending.fix).toContain('put-account-sending-attributes --sending-enabled');
    expect(sender.status).toBe('fail');
    expect(sender.fix).toContain('aws sesv2 create-email-identity --email-identity toonzap.com --region eu-west-1');
  });
});

describe('SageMaker serverless concurrency', () => {
  const endpoint = (name: string, stack: string, max: number) => {
    const arn = `arn:aws:sagemaker:eu-west-1:${ACCOUNT}:endpoint/${name}`;
    sagemaker.on(DescribeEndpointCommand, { EndpointName: name }).resolves({
      EndpointName: name,
      EndpointArn: arn,
      ProductionVariants: [
        { VariantName: 'engine', CurrentServerlessConfig: { MemorySizeInMB: 6144, MaxConcurrency: max } },
      ],
    } as never);
    sagemaker.on(ListTagsCommand, { ResourceArn: arn }).resolves({
      Tags: [{ Key: 'aws:cloudformation:stack-name', Value: stack }],
    });
    return {
      EndpointName: name,
      EndpointArn: arn,
      CreationTime: new Date(0),
      LastModifiedTime: new Date(0),
      EndpointStatus: 'InService' as const,
    };
  };

  /** Prod keeps one engine instance warm; these cases leave provisioned concurrency out. */
  const noWarmEngine = prodConfig(PROFILE, { engineProvisionedConcurrency: '0' });
  const provisionedQuota = (value: number | null) => {
    quotas.on(ListAWSDefaultServiceQuotasCommand).resolves({ Quotas: [] });
    quotas.on(ListServiceQuotasCommand, { ServiceCode: 'sagemaker' }).resolves({
      Quotas:
        value === null
          ? []
          : [
              {
                ServiceCode: 'sagemaker',
                QuotaCode: 'L-PROV',
                QuotaName: 'Maximum total provisioned concurrency across all serverless endpoints',
                Value: value,
              },
            ],
    });
    quotas.on(GetServiceQuotaCommand).resolves({ Quota: { QuotaCode: SERVERLESS_CONCURRENCY_QUOTA, Value: 10 } });
    sagemaker.on(ListEndpointsCommand).resolves({ Endpoints: [] });
  };

  it('passes prod’s warm engine instance within the provisioned-concurrency quota', async () => {
    provisionedQuota(5);
    const [, warm] = await sagemakerQuota.run(ctx(prodConfig(PROFILE)));
    expect(warm).toMatchObject({ status: 'pass', detail: 'quota 5 ≥ 1 (1 for the engine)' });
  });

  it('fails a provisioned-concurrency quota of 0, and warns when none is listed', async () => {
    provisionedQuota(0);
    const [, warm] = await sagemakerQuota.run(ctx(prodConfig(PROFILE)));
    expect(warm.status).toBe('fail');
    expect(warm.fix).toContain('--quota-code L-PROV --desired-value 1');
    expect(warm.fix).toContain('-c engineProvisionedConcurrency');
    quotas.reset();
    provisionedQuota(null);
    const [, unknown] = await sagemakerQuota.run(ctx(prodConfig(PROFILE)));
    expect(unknown.status).toBe('warn');
  });

  it('fails when another environment’s endpoint and ours exceed the account quota', async () => {
    quotas.on(GetServiceQuotaCommand).rejects(awsError('NoSuchResourceException'));
    quotas
      .on(GetAWSDefaultServiceQuotaCommand, { ServiceCode: 'sagemaker', QuotaCode: SERVERLESS_CONCURRENCY_QUOTA })
      .resolves({
        Quota: {
          ServiceCode: 'sagemaker',
          QuotaCode: SERVERLESS_CONCURRENCY_QUOTA,
          QuotaName: 'Maximum total concurrency that can be allocated across all serverless endpoints',
          Value: 10,
        },
      });
    sagemaker.on(ListEndpointsCommand).resolves({ Endpoints: [endpoint('EndpointDev', 'ToonZap-dev', 10)] });
    const f = only(await sagemakerQuota.run(ctx(noWarmEngine)));
    expect(f.status).toBe('fail');
    expect(f.detail).toBe(
      'quota 10 < 20: 10 for the engine + 10 of EndpointDev (10); the endpoint would fail to create',
    );
    expect(f.fix).toContain(
      `--service-code sagemaker --quota-code ${SERVERLESS_CONCURRENCY_QUOTA} --desired-value 20 --region eu-west-1`,
    );
  });

  it('passes when only this environment’s own endpoint exists (a deploy replaces it)', async () => {
    quotas.on(GetServiceQuotaCommand).resolves({
      Quota: { ServiceCode: 'sagemaker', QuotaCode: SERVERLESS_CONCURRENCY_QUOTA, Value: 10 },
    });
    sagemaker.on(ListEndpointsCommand).resolves({ Endpoints: [endpoint('EndpointProd', 'ToonZap-prod', 10)] });
    const f = only(await sagemakerQuota.run(ctx(noWarmEngine)));
    expect(f.status).toBe('pass');
    expect(f.detail).toContain('no other serverless endpoint');
  });
});

describe('Lambda concurrency', () => {
  it('fails a new account’s 10 concurrent executions with the increase command', async () => {
    lambda.on(GetAccountSettingsCommand).resolves({
      AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 },
    });
    const f = only(await lambdaConcurrency.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('10 unreserved of 10 < 64');
    expect(f.fix).toContain('--service-code lambda --quota-code L-B99A9384 --desired-value 1000 --region eu-west-1');
  });

  it('passes AWS’s default of 1,000', async () => {
    lambda.on(GetAccountSettingsCommand).resolves({
      AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 },
    });
    expect(only(await lambdaConcurrency.run(ctx(prodConfig(PROFILE)))).status).toBe('pass');
  });
});

describe('Docker for the engine image', () => {
  it('passes a running daemon', async () => {
    expect(only(await docker.run(ctx(prodConfig(PROFILE)))).status).toBe('pass');
  });

  it('fails without a daemon and names engineImageUri as the way round', async () => {
    const down: DockerProbe = async () => {
      throw new Error('Cannot connect to the Docker daemon at unix:///var/run/docker.sock');
    };
    const f = only(await docker.run(ctx(prodConfig(PROFILE), { docker: down })));
    expect(f.status).toBe('fail');
    expect(f.fix).toContain('-c engineImageUri=');
  });

  it('warns on an arm64 machine (the amd64 image is emulated)', async () => {
    const arm: DockerProbe = async () => ({ serverVersion: '27.3.1', architecture: 'aarch64' });
    expect(only(await docker.run(ctx(prodConfig(PROFILE), { docker: arm }))).status).toBe('warn');
  });

  it('is not asked when engineImageUri is given', async () => {
    const probe = jest.fn(dockerOk);
    const config = prodConfig(PROFILE, { engineImageUri: `${ACCOUNT}.dkr.ecr.eu-west-1.amazonaws.com/engine:1` });
    expect(only(await docker.run(ctx(config, { docker: probe }))).status).toBe('pass');
    expect(probe).not.toHaveBeenCalled();
  });
});

describe('the run and its report', () => {
  it('passes a ready account through the whole checklist: exit 0', async () => {
    bedrockWithProfile();
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: '30' } });
    bedrock.on(GetFoundationModelAvailabilityCommand).resolves({
      agreementAvailability: { status: 'AVAILABLE' },
      authorizationStatus: 'AUTHORIZED',
      entitlementAvailability: 'AVAILABLE',
      regionAvailability: 'AVAILABLE',
    });
    quotas.on(ListAWSDefaultServiceQuotasCommand).resolves({ Quotas: [] });
    quotas.on(ListServiceQuotasCommand).resolves({
      Quotas: [
        {
          ServiceCode: 'bedrock',
          QuotaCode: 'L-RPMC',
          QuotaName: 'Cross-Region InvokeModel requests per minute for Stable Image Control Structure',
          Value: 20,
        },
        {
          ServiceCode: 'sagemaker',
          QuotaCode: 'L-PROV',
          QuotaName: 'Maximum total provisioned concurrency across all serverless endpoints',
          Value: 10,
        },
      ],
    });
    quotas.on(GetServiceQuotaCommand).resolves({ Quota: { QuotaCode: SERVERLESS_CONCURRENCY_QUOTA, Value: 10 } });
    sagemaker.on(ListEndpointsCommand).resolves({ Endpoints: [] });
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
    sesv2.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true });
    const findings = await runChecks(ctx(prodConfig(PROFILE)));
    expect(findings.filter((f) => f.status !== 'pass')).toEqual([]);
    expect(findings.length).toBeGreaterThanOrEqual(CHECKS.length);
    expect(exitCodeOf(findings)).toBe(0);
    expect(formatReport('', findings)).toMatch(/ passed, 0 failed, 0 to look at, 0 skipped: ready to deploy\.$/);
  });

  it('turns a check that cannot read into a failure and prints each fix under its line', async () => {
    const denied: Check = {
      title: 'Something',
      needsAccount: true,
      run: async () => {
        throw awsError('AccessDeniedException', 'not authorized to perform: lambda:GetAccountSettings');
      },
    };
    const findings = await runChecks(ctx(prodConfig(PROFILE)), [identity, denied, docker]);
    expect(findings[2]).toMatchObject({ status: 'fail', title: 'Something' });
    expect(exitCodeOf(findings)).toBe(1);
    const text = formatReport('ToonZap preflight: env prod', findings);
    expect(text).toContain('✓ AWS credentials: account 123456789012');
    expect(text).toContain(
      '✗ Something: could not check: AccessDeniedException: not authorized to perform: lambda:GetAccountSettings\n    fix: run the preflight as a principal',
    );
    expect(text).toContain('3 passed, 1 failed, 0 to look at, 0 skipped: fix the failures before deploying.');
  });

  it('exits 0 when nothing failed (warnings only)', () => {
    expect(
      exitCodeOf([
        { status: 'pass', title: 'a', detail: '' },
        { status: 'warn', title: 'b', detail: '', fix: 'x' },
      ]),
    ).toBe(0);
  });

  it('reads -c key=value as cdk deploy does', () => {
    expect(parseContextArgs(['-c', 'env=prod', '--context', 'mailFrom=a@b.c', '--context=x=y=z'])).toEqual({
      env: 'prod',
      mailFrom: 'a@b.c',
      x: 'y=z',
    });
    expect(() => parseContextArgs(['env=prod'])).toThrow('unknown argument');
    expect(() => parseContextArgs(['-c'])).toThrow('needs key=value');
  });
});
