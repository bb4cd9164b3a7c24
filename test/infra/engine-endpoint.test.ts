import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ENVIRONMENTS, resolveConfig } from '../../lib/config';
import { ToonZapStack } from '../../lib/toonzap-stack';

type Json = any;

/** The prod template's engine endpoint: what a first deploy on a real account needs (issue 22). */
describe('engine endpoint (prod template)', () => {
  const synth = (config = ENVIRONMENTS.prod) =>
    Template.fromStack(
      new ToonZapStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test', {
        config,
        env: { account: '123456789012', region: 'eu-west-1' },
      }),
    ).toJSON().Resources as Record<string, Json>;
  const resources = synth();
  const ofType = (type: string, from = resources) =>
    Object.entries(from).filter(([, r]) => r.Type === type) as [string, Json][];

  test("the model waits for the policy that lets its role pull the image, and knows the stack's region", () => {
    const [[, model]] = ofType('AWS::SageMaker::Model');
    const roleId = model.Properties.ExecutionRoleArn['Fn::GetAtt'][0];
    // The role's default policy holds the ECR pull grant (BatchGetImage on the engine's repository).
    const [policyId, policy] = ofType('AWS::IAM::Policy').find(([, p]) =>
      p.Properties.Roles.some((r: Json) => r.Ref === roleId),
    )!;
    const actions = policy.Properties.PolicyDocument.Statement.flatMap((s: Json) => [s.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer']));
    expect([model.DependsOn].flat()).toContain(policyId);
    expect(model.Properties.PrimaryContainer.Environment).toMatchObject({ AWS_REGION: 'eu-west-1' });
  });

  test('MaxConcurrency and ProvisionedConcurrency come from the configuration (prod keeps one engine warm)', () => {
    const [[, config]] = ofType('AWS::SageMaker::EndpointConfig');
    expect(config.Properties.ProductionVariants[0].ServerlessConfig).toEqual({
      MemorySizeInMB: 6144,
      MaxConcurrency: ENVIRONMENTS.prod.engineMaxConcurrency,
      ProvisionedConcurrency: 1,
    });
    expect(ENVIRONMENTS.prod.engineProvisionedConcurrency).toBeGreaterThanOrEqual(1);
    // dev: none kept warm (SageMaker refuses ProvisionedConcurrency 0, so it is left out); overrides are checked.
    const dev = resolveConfig((k) => (({ env: 'dev', engineMaxConcurrency: '4' }) as Record<string, string>)[k]);
    const [[, devConfig]] = ofType('AWS::SageMaker::EndpointConfig', synth(dev));
    expect(devConfig.Properties.ProductionVariants[0].ServerlessConfig).toEqual({
      MemorySizeInMB: 6144,
      MaxConcurrency: 4,
    });
    const bad = (ctx: Record<string, string>) => () => resolveConfig((k) => ({ env: 'prod', ...ctx })[k]);
    expect(bad({ engineMaxConcurrency: '0' })).toThrow(/engineMaxConcurrency/);
    expect(bad({ engineMaxConcurrency: '201' })).toThrow(/engineMaxConcurrency/);
    expect(bad({ engineMaxConcurrency: '2', engineProvisionedConcurrency: '3' })).toThrow(
      /engineProvisionedConcurrency/,
    );
  });
});
