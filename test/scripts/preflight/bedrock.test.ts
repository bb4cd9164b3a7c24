/** `npm run preflight`, the Bedrock checks: models and profiles, model access (Marketplace), requests per minute. */
import {
  GetFoundationModelAvailabilityCommand,
  GetFoundationModelCommand,
  GetInferenceProfileCommand,
  type InferenceType,
} from '@aws-sdk/client-bedrock';
import { GetRoleCommand, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { ListAWSDefaultServiceQuotasCommand, ListServiceQuotasCommand } from '@aws-sdk/client-service-quotas';
import { FAST_UPSCALE_MODEL_ID } from '../../../domain/generative';
import { MARKETPLACE_SUBSCRIBE_ACTIONS } from '../../../lib/bedrock-access';
import type { EnvConfig } from '../../../lib/config';
import { bedrockModels } from '../../../scripts/preflight/checks/bedrock-models';
import { bedrockQuota } from '../../../scripts/preflight/checks/bedrock-quota';
import { modelAccess } from '../../../scripts/preflight/checks/model-access';

import {
  ACCOUNT,
  awsError,
  bedrock,
  bedrockWithProfile,
  ctx,
  FM,
  fmArn,
  iam,
  mockAccountPerTest,
  only,
  PROFILE,
  prodConfig,
  quotas,
} from './mock-account';

mockAccountPerTest();

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
  /** A model's Marketplace availability; `failed`: a subscription attempt that failed, with this message. */
  const availability = (status: 'AVAILABLE' | 'PENDING' | 'NOT_AVAILABLE', modelId = FM, failed?: string) =>
    bedrock.on(GetFoundationModelAvailabilityCommand, { modelId }).resolves({
      modelId,
      agreementAvailability: failed ? { status: 'ERROR', errorMessage: failed } : { status },
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

  it('checks the upscale service too when bedrockUpscaleModelId is set', async () => {
    bedrockWithProfile();
    availability('AVAILABLE');
    const upscale = `us.${FAST_UPSCALE_MODEL_ID}`;
    bedrock.on(GetInferenceProfileCommand, { inferenceProfileIdentifier: upscale }).resolves({
      inferenceProfileId: upscale,
      status: 'ACTIVE',
      models: [{ modelArn: `arn:aws:bedrock:us-west-2::foundation-model/${FAST_UPSCALE_MODEL_ID}` }],
    });
    bedrock.on(GetFoundationModelCommand, { modelIdentifier: FAST_UPSCALE_MODEL_ID }).resolves({
      modelDetails: { modelId: FAST_UPSCALE_MODEL_ID, modelArn: 'x', providerName: 'Stability AI' },
    });
    availability('NOT_AVAILABLE', FAST_UPSCALE_MODEL_ID, 'no payment method');
    simulate('allowed');
    const findings = await modelAccess.run(ctx(prodConfig(PROFILE, { bedrockUpscaleModelId: upscale })));
    expect(findings.map((f) => [f.title, f.status])).toEqual([
      [`Model access ${FM}`, 'pass'],
      [`Model access ${FAST_UPSCALE_MODEL_ID}`, 'fail'],
    ]);
    // Without the setting, only the style's model.
    expect(await modelAccess.run(ctx(prodConfig(PROFILE)))).toHaveLength(1);
  });

  it('fails a model not subscribed (the functions may not subscribe) and tells a caller who may subscribe how', async () => {
    bedrockWithProfile();
    availability('NOT_AVAILABLE');
    simulate('allowed');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('the functions may not subscribe');
    expect(f.fix).toMatch(
      /^you may subscribe now \(you hold aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe\)/,
    );
    expect(f.fix).toContain(`aws bedrock create-foundation-model-agreement --model-id ${FM}`);
    // The simulator is asked about the role behind the session, with its path, for the actions that subscribe.
    const input = iam.commandCalls(SimulatePrincipalPolicyCommand)[0].args[0].input;
    expect(input.PolicySourceArn).toBe(`arn:aws:iam::${ACCOUNT}:role/ops/Deployer`);
    expect(input.ActionNames).toEqual(MARKETPLACE_SUBSCRIBE_ACTIONS);
  });

  it('says when the caller lacks the Marketplace permissions', async () => {
    bedrockWithProfile();
    availability('NOT_AVAILABLE');
    simulate('implicitDeny');
    const f = only(await modelAccess.run(ctx(prodConfig(PROFILE))));
    expect(f.status).toBe('fail');
    expect(f.fix).toMatch(
      /^a principal with aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe subscribes \(yours lacks them\)/,
    );
  });

  it('fails a subscription attempt that failed, naming the payment method', async () => {
    bedrockWithProfile();
    availability('NOT_AVAILABLE', FM, 'No valid payment instrument');
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
      'aws service-quotas request-service-quota-increase --service-code bedrock --quota-code L-RPMC --desired-value 10 --region us-west-2',
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
