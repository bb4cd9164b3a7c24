/**
 * `npm run preflight`: each check against a mocked account (aws-sdk-client-mock), passing and failing, with the fix
 * it prints. No real account is called: the clients carry fake credentials and every command is mocked.
 */
import {
  BedrockClient,
  GetFoundationModelAvailabilityCommand,
  GetFoundationModelCommand,
  GetInferenceProfileCommand,
  type InferenceType,
  ListInferenceProfilesCommand,
} from '@aws-sdk/client-bedrock';
import { GetRoleCommand, IAMClient, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DescribeEndpointCommand,
  ListEndpointsCommand,
  ListTagsCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import {
  GetAWSDefaultServiceQuotaCommand,
  GetServiceQuotaCommand,
  ListAWSDefaultServiceQuotasCommand,
  ListServiceQuotasCommand,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { MARKETPLACE_SUBSCRIBE_ACTIONS } from '../../lib/bedrock-access';
import { type EnvConfig, resolveConfig } from '../../lib/config';
import { parseContextArgs } from '../../scripts/preflight/args';
import { CHECKS } from '../../scripts/preflight/checks';
import { bedrockModels } from '../../scripts/preflight/checks/bedrock-models';
import { bedrockQuota } from '../../scripts/preflight/checks/bedrock-quota';
import { cdkBootstrap } from '../../scripts/preflight/checks/cdk-bootstrap';
import { docker } from '../../scripts/preflight/checks/docker';
import { identity } from '../../scripts/preflight/checks/identity';
import { lambdaConcurrency } from '../../scripts/preflight/checks/lambda-concurrency';
import { modelAccess } from '../../scripts/preflight/checks/model-access';
import { SERVERLESS_CONCURRENCY_QUOTA, sagemakerQuota } from '../../scripts/preflight/checks/sagemaker-quota';
import { ses } from '../../scripts/preflight/checks/ses';
import { formatReport } from '../../scripts/preflight/report';
import { exitCodeOf, runChecks } from '../../scripts/preflight/run';
import type { Check, Clients, DockerProbe, Finding, PreflightContext } from '../../scripts/preflight/types';

const FM = 'stability.stable-image-control-structure-v1:0';
const PROFILE = `us.${FM}`;
const ACCOUNT = '123456789012';
const fmArn = (region: string) => `arn:aws:bedrock:${region}::foundation-model/${FM}`;

const sts = mockClient(STSClient);
const iam = mockClient(IAMClient);
const bedrock = mockClient(BedrockClient);
const sesv2 = mockClient(SESv2Client);
const quotas = mockClient(ServiceQuotasClient);
const lambda = mockClient(LambdaClient);
const sagemaker = mockClient(SageMakerClient);
const ssm = mockClient(SSMClient);
const mocks = [sts, iam, bedrock, sesv2, quotas, lambda, sagemaker, ssm];

const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' };
const clients: Clients = {
  sts: () => new STSClient({ region: 'eu-west-1', credentials }),
  iam: () => new IAMClient({ region: 'us-east-1', credentials }),
  bedrock: (region) => new BedrockClient({ region, credentials }),
  sesv2: (region) => new SESv2Client({ region, credentials }),
  quotas: (region) => new ServiceQuotasClient({ region, credentials }),
  lambda: (region) => new LambdaClient({ region, credentials }),
  sagemaker: (region) => new SageMakerClient({ region, credentials }),
  ssm: (region) => new SSMClient({ region, credentials }),
};

/** The prod config `cdk deploy -c env=prod -c ...` would build, one generative style on `modelId`. */
function prodConfig(modelId: string, context: Record<string, string> = {}): EnvConfig {
  const all: Record<string, string> = {
    env: 'prod',
    generativeStyles: '3d',
    generativeSettings: JSON.stringify({ '3d': { modelId } }),
    mailFrom: 'ToonZap <orders@toonzap.com>',
    ...context,
  };
  return resolveConfig((key) => all[key]);
}

const dockerOk: DockerProbe = async () => ({ serverVersion: '27.3.1', architecture: 'x86_64' });

function ctx(config: EnvConfig, extra: Partial<PreflightContext> = {}): PreflightContext {
  return { config, region: 'eu-west-1', clients, docker: dockerOk, memo: new Map(), ...extra };
}

const awsError = (name: string, message = name) => Object.assign(new Error(message), { name });

/** Bedrock answering for the cross-Region profile and its foundation model (profile-only, as AWS lists it). */
function bedrockWithProfile(regions = ['us-east-1', 'us-east-2', 'us-west-2']) {
  bedrock.on(GetInferenceProfileCommand, { inferenceProfileIdentifier: PROFILE }).resolves({
    inferenceProfileId: PROFILE,
    status: 'ACTIVE',
    type: 'SYSTEM_DEFINED',
    models: regions.map((r) => ({ modelArn: fmArn(r) })),
  });
  bedrock.on(GetFoundationModelCommand, { modelIdentifier: FM }).resolves({
    modelDetails: {
      modelId: FM,
      modelArn: fmArn('us-west-2'),
      modelName: 'Stable Image Control Structure',
      providerName: 'Stability AI',
      // The SDK's enum predates it; AWS's model inventory lists this model with INFERENCE_PROFILE only.
      inferenceTypesSupported: ['INFERENCE_PROFILE' as InferenceType],
      modelLifecycle: { status: 'ACTIVE' },
    },
  });
  bedrock.on(ListInferenceProfilesCommand).resolves({
    inferenceProfileSummaries: [
      {
        inferenceProfileId: PROFILE,
        inferenceProfileName: 'US Stable Image Control Structure',
        inferenceProfileArn: `arn:aws:bedrock:us-west-2:${ACCOUNT}:inference-profile/${PROFILE}`,
        status: 'ACTIVE',
        type: 'SYSTEM_DEFINED',
        models: regions.map((r) => ({ modelArn: fmArn(r) })),
      },
    ],
  });
}

const only = (findings: Finding[]) => {
  expect(findings).toHaveLength(1);
  return findings[0];
};

beforeEach(() => {
  for (const m of mocks) m.reset();
  sts.on(GetCallerIdentityCommand).resolves({
    Account: ACCOUNT,
    Arn: `arn:aws:sts::${ACCOUNT}:assumed-role/Deployer/alice`,
    UserId: 'AROA:alice',
  });
});

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

describe('Bedrock models and inference profiles', () => {
  it('passes an ACTIVE inference profile that routes only to granted regions', async () => {
    bedrockWithProfile();
    const f = only(await bedrockModels.run(ctx(prodConfig(PROFILE))));
    expect(f).toMatchObject({ status: 'pass', title: `Bedrock model ${PROFILE} (3d)` });
    expect(f.detail).toContain('us-east-1, us-east-2, us-west-2');
  });

  it('fails the plain id of a profile-only model and names the profile to use', async () => {
    bedrockWithProfile();
    const f = only(await bedrockModels.run(ctx(prodConfig(FM))));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('ValidationException');
    expect(f.fix).toContain(`-c generativeSettings='{"3d":{"modelId":"${PROFILE}"}}'`);
  });

  it('passes a plain id that supports on-demand calls', async () => {
    bedrockWithProfile();
    bedrock.on(GetFoundationModelCommand, { modelIdentifier: FM }).resolves({
      modelDetails: {
        modelId: FM,
        modelArn: fmArn('us-west-2'),
        inferenceTypesSupported: ['ON_DEMAND', 'INFERENCE_PROFILE' as InferenceType],
      },
    });
    expect(only(await bedrockModels.run(ctx(prodConfig(FM)))).status).toBe('pass');
  });

  it('fails a profile that routes to a region IAM does not grant', async () => {
    bedrockWithProfile();
    const f = only(await bedrockModels.run(ctx(prodConfig(PROFILE, { bedrockProfileRegions: 'us-west-2' }))));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('us-east-1, us-east-2');
    expect(f.fix).toBe('deploy with -c bedrockProfileRegions=us-east-1,us-east-2,us-west-2');
  });

  it('fails a profile Bedrock does not know in the region', async () => {
    bedrockWithProfile();
    bedrock
      .on(GetInferenceProfileCommand, { inferenceProfileIdentifier: `eu.${FM}` })
      .rejects(awsError('ResourceNotFoundException'));
    const f = only(await bedrockModels.run(ctx(prodConfig(`eu.${FM}`))));
    expect(f).toMatchObject({ status: 'fail', detail: 'no such inference profile in us-west-2' });
    expect(f.fix).toContain('aws bedrock list-inference-profiles --region us-west-2');
  });

  it('fails an id Bedrock knows neither as a profile nor as a model', async () => {
    bedrock.on(GetInferenceProfileCommand).rejects(awsError('ResourceNotFoundException'));
    bedrock.on(GetFoundationModelCommand).rejects(awsError('ResourceNotFoundException'));
    const f = only(await bedrockModels.run(ctx(prodConfig('stability.no-such-model-v9:0'))));
    expect(f.status).toBe('fail');
    expect(f.fix).toContain('aws bedrock list-foundation-models --region us-west-2');
  });
});

describe('model access and the Marketplace subscription', () => {
  const availability = (status: 'AVAILABLE' | 'PENDING' | 'NOT_AVAILABLE') =>
    bedrock.on(GetFoundationModelAvailabilityCommand, { modelId: FM }).resolves({
      modelId: FM,
      agreementAvailability: { status },
      authorizationStatus: 'AUTHORIZED',
      entitlementAvailability: status === 'AVAILABLE' ? 'AVAILABLE' : 'NOT_AVAILABLE',
      regionAvailability: 'AVAILABLE',
    });
  const simulate = (decision: 'allowed' | 'implicitDeny') => {
    iam.on(GetRoleCommand, { RoleName: 'Deployer' }).resolves({
      Role: {
        RoleName: 'Deployer',
        Arn: `arn:aws:iam::${ACCOUNT}:role/ops/Deployer`,
        Path: '/ops/',
        RoleId: 'AROA',
        CreateDate: new Date(0),
      },
    });
    iam.on(SimulatePrincipalPolicyCommand).callsFake(async (input) => ({
      EvaluationResults: (input.ActionNames ?? []).map((action: string) => ({
        EvalActionName: action,
        EvalDecision: decision,
      })),
    }));
  };

  it('passes a subscribed model (asked for the profile’s foundation model)', async () => {
    bedrockWithProfile();
    availability('AVAILABLE');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f).toMatchObject({ status: 'pass', title: `Model access ${FM}` });
  });

  it('warns of a model not subscribed yet (the first call subscribes) and tells a caller who may subscribe how', async () => {
    bedrockWithProfile();
    availability('NOT_AVAILABLE');
    simulate('allowed');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('warn');
    expect(f.detail).toContain('the first call subscribes the account');
    expect(f.fix).toMatch(
      /^you may subscribe now \(you hold aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe\)/,
    );
    expect(f.fix).toContain(`aws bedrock create-foundation-model-agreement --model-id ${FM}`);
    // The simulator is asked about the role behind the session, with its path, for the actions the functions hold.
    const input = iam.commandCalls(SimulatePrincipalPolicyCommand)[0].args[0].input;
    expect(input.PolicySourceArn).toBe(`arn:aws:iam::${ACCOUNT}:role/ops/Deployer`);
    expect(input.ActionNames).toEqual(MARKETPLACE_SUBSCRIBE_ACTIONS);
  });

  it('says when the caller lacks the Marketplace permissions', async () => {
    bedrockWithProfile();
    availability('NOT_AVAILABLE');
    simulate('implicitDeny');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('warn');
    expect(f.fix).toMatch(
      /^a principal with aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe subscribes \(yours lacks them\)/,
    );
  });

  it('fails a subscription attempt that failed, naming the payment method', async () => {
    bedrockWithProfile();
    bedrock.on(GetFoundationModelAvailabilityCommand, { modelId: FM }).resolves({
      modelId: FM,
      agreementAvailability: { status: 'ERROR', errorMessage: 'No valid payment instrument' },
      authorizationStatus: 'AUTHORIZED',
      entitlementAvailability: 'NOT_AVAILABLE',
      regionAvailability: 'AVAILABLE',
    });
    simulate('allowed');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('No valid payment instrument');
    expect(f.fix).toMatch(/^give the account a valid payment method/);
  });

  it('warns while the subscription is being finalised', async () => {
    bedrockWithProfile();
    availability('PENDING');
    expect(only(await modelAccess.run(ctx(prodConfig(PROFILE)))).status).toBe('warn');
  });
});

describe('Bedrock requests per minute', () => {
  const rpmQuota = (value: number) =>
    quotas.on(ListServiceQuotasCommand, { ServiceCode: 'bedrock' }).resolves({
      Quotas: [
        {
          ServiceCode: 'bedrock',
          QuotaCode: 'L-RPMX',
          QuotaName: 'On-demand InvokeModel requests per minute for Stable Image Control Structure',
          Value: 99,
        },
        {
          ServiceCode: 'bedrock',
          QuotaCode: 'L-RPMC',
          QuotaName: 'Cross-Region InvokeModel requests per minute for Stable Image Control Structure',
          Value: value,
        },
      ],
    });
  beforeEach(() => {
    bedrockWithProfile();
    quotas.on(ListAWSDefaultServiceQuotasCommand).resolves({ Quotas: [] });
  });

  it('passes the cross-Region quota of a profile', async () => {
    rpmQuota(20);
    const f = only(await bedrockQuota.run(ctx(prodConfig(PROFILE))));
    expect(f).toMatchObject({ status: 'pass' });
    expect(f.detail).toMatch(/^20 requests per minute/);
  });

  it('fails a quota of 0 with the increase command', async () => {
    rpmQuota(0);
    const f = only(await bedrockQuota.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('fail');
    expect(f.fix).toContain(
      'aws service-quotas request-service-quota-increase --service-code bedrock --quota-code L-RPMC --desired-value 1 --region us-west-2',
    );
  });

  it('fails a planned rate (bedrockRequestsPerMinute) above the quota', async () => {
    rpmQuota(6);
    const config = { ...prodConfig(PROFILE), bedrockRequestsPerMinute: 10 } as EnvConfig;
    const f = only(await bedrockQuota.run(ctx(config)));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('is 6, the configuration plans 10');
    expect(f.fix).toContain('--desired-value 10');
  });

  it('leaves a profile-only model called by its plain id to the model check (no quota to look up)', async () => {
    rpmQuota(20);
    expect(await bedrockQuota.run(ctx(prodConfig(FM)))).toEqual([]);
  });

  it('warns when no quota of that name is listed', async () => {
    quotas.on(ListServiceQuotasCommand).resolves({ Quotas: [] });
    expect(only(await bedrockQuota.run(ctx(prodConfig(PROFILE)))).status).toBe('warn');
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
    expect(f.detail).toContain('10 unreserved of 10 < 60');
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
