import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../domain/api-routes';
import { RETENTION_DAYS } from '../../domain/privacy';
import { ENTRY_METADATA_KEY, ENV, TABLES } from '../../domain/wiring';
import { ENVIRONMENTS, resolveConfig } from '../../lib/config';
import { ToonZapStack } from '../../lib/toonzap-stack';
import { rateMs, readModel, synthesizeLocal } from '../../local/template';

function synth(envName: 'dev' | 'prod' = 'dev') {
  // Skipping bundling keeps the test offline and fast; the template is otherwise the deployed one.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ToonZapStack(app, `Test-${envName}`, {
    config: ENVIRONMENTS[envName],
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  return Template.fromStack(stack);
}

describe('ToonZap stack', () => {
  const template = synth();

  test('one Lambda per route of the route table, each behind its API route', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    const keys = Object.values(routes)
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(keys).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const entries = Object.values(template.findResources('AWS::Lambda::Function'))
      .map((f) => f.Metadata?.[ENTRY_METADATA_KEY])
      .filter((e): e is string => typeof e === 'string' && e.startsWith('lambdas/routes/'));
    expect(entries.sort()).toEqual(ROUTES.map((r) => `lambdas/routes/${r.handler}.ts`).sort());
    for (const route of ROUTES) {
      // Each route's integration points at a function built from that route's module.
      const [routeRes] = Object.values(routes).filter((r) => r.Properties.RouteKey === `${route.method} ${route.path}`);
      const integrationId = routeRes.Properties.Target['Fn::Join'][1][1].Ref;
      const fnId = template.toJSON().Resources[integrationId].Properties.IntegrationUri['Fn::GetAtt'][0];
      expect(template.toJSON().Resources[fnId].Metadata[ENTRY_METADATA_KEY]).toBe(`lambdas/routes/${route.handler}.ts`);
    }
  });

  test('tables are on-demand with point-in-time recovery', () => {
    const tables = template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables).length).toBe(Object.keys(TABLES).length);
    for (const t of Object.values(tables)) {
      expect(t.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(t.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
    for (const key of Object.values(TABLES)) {
      template.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: key, KeyType: 'HASH' }] });
    }
  });

  test('every bucket blocks public access and enforces TLS', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets).length).toBe(3); // media, site, access logs
    for (const b of Object.values(buckets)) {
      expect(b.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  test('media bucket allows browser PUT and expires data', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: Match.arrayWith(['PUT']) })] },
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Prefix: 'uploads/', Status: 'Enabled' })]) },
    });
  });

  test('retention: every table expires records by TTL on expires_at, media prefixes by lifecycle, from domain/privacy.ts', () => {
    const tables = Object.values(template.findResources('AWS::DynamoDB::Table'));
    expect(tables.length).toBe(Object.keys(TABLES).length);
    for (const t of tables)
      expect(t.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expires_at', Enabled: true });
    // The media bucket (the one the browser PUTs to).
    const bucket = Object.values(
      template.findResources('AWS::S3::Bucket', { Properties: { CorsConfiguration: Match.anyValue() } }),
    );
    expect(bucket.length).toBe(1);
    const rules = bucket[0].Properties.LifecycleConfiguration.Rules as {
      Prefix?: string;
      ExpirationInDays?: number;
      Status: string;
    }[];
    const days = Object.fromEntries(rules.filter((r) => r.Prefix).map((r) => [r.Prefix, r.ExpirationInDays]));
    expect(days).toEqual({
      'uploads/': RETENTION_DAYS.uploads,
      'previews/': RETENTION_DAYS.previews,
      'outputs/': RETENTION_DAYS.outputs,
      'analysis/': RETENTION_DAYS.uploads,
      'shares/': RETENTION_DAYS.outputs,
      'uploads/proofs/': RETENTION_DAYS.uncheckedUploads,
    });
    for (const r of rules) expect(r.Status).toBe('Enabled');
  });

  test('no deployed function is told its generative styles are the local stand-in', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(fns.length).toBeGreaterThan(0);
    for (const fn of fns) expect(fn.Properties.Environment?.Variables?.[ENV.generativeStandIn]).toBeUndefined();
  });

  test('support address: per environment, overridable, on every function and validated', () => {
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      if (fn.Properties.Environment?.Variables?.MEDIA_BUCKET)
        expect(fn.Properties.Environment.Variables.SUPPORT_EMAIL).toBe(ENVIRONMENTS.dev.supportEmail);
    }
    expect(
      resolveConfig((k) => (({ env: 'prod', supportEmail: 'help@toonzap.example' }) as Record<string, string>)[k])
        .supportEmail,
    ).toBe('help@toonzap.example');
    expect(() =>
      resolveConfig((k) => (({ env: 'prod', supportEmail: 'Help <help@x.example>' }) as Record<string, string>)[k]),
    ).toThrow(/supportEmail/);
  });

  test('CloudFront serves the site through origin access control and routes /api/* and share pages to the HTTP API', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        Origins: Match.arrayWith([
          Match.objectLike({ OriginAccessControlId: Match.anyValue(), S3OriginConfig: Match.anyValue() }),
        ]),
        CacheBehaviors: [
          Match.objectLike({ PathPattern: '/api/*', AllowedMethods: Match.arrayWith(['POST']) }),
          // Share pages: HTML the API makes, with the site's security headers like every page.
          Match.objectLike({ PathPattern: '/image/*', ResponseHeadersPolicyId: Match.anyValue() }),
        ],
        DefaultCacheBehavior: Match.objectLike({
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
      }),
    });
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl']));
  });

  test('jobs run in a Step Functions state machine whose tasks are Lambda functions', () => {
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 2); // jobs, and orders (test/infra/order-pipeline.test.ts)
    template.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      ProductionVariants: [Match.objectLike({ ServerlessConfig: Match.anyValue() })],
    });
  });

  test('the reconciler is its own Lambda, run every 5 minutes by EventBridge Scheduler, and may stop a stuck order', () => {
    const resources = template.toJSON().Resources as Record<
      string,
      { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }
    >;
    const [fnId] = Object.entries(resources).find(
      ([, r]) => r.Metadata?.[ENTRY_METADATA_KEY] === 'lambdas/schedules/reconcile.ts',
    )!;
    const schedules = Object.values(resources).filter((r) => r.Type === 'AWS::Scheduler::Schedule');
    expect(schedules).toHaveLength(1);
    expect(schedules[0].Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Target: { Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } },
    });
    expect(resources[fnId].Properties.Environment.Variables.ORDER_MACHINE_ARN).toBeDefined();
    const role = resources[fnId].Properties.Role['Fn::GetAtt'][0];
    const policy = Object.values(resources).find(
      (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === role),
    )!;
    const actions = policy.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) =>
      [st.Action].flat(),
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'states:StartExecution',
        'states:DescribeExecution',
        'states:StopExecution',
        'ses:SendEmail',
      ]),
    );

    // The local runtime reads the same schedule from the template and runs the same handler at the same rate.
    const model = readModel(synthesizeLocal('simulated'));
    expect(model.schedules).toEqual([expect.objectContaining({ expression: 'rate(5 minutes)', periodMs: 300_000 })]);
    expect(model.functions.get(model.schedules[0].functionId)?.entry).toBe('lambdas/schedules/reconcile.ts');
    expect(rateMs('rate(1 hour)')).toBe(3_600_000);
    expect(() => rateMs('cron(0 12 * * ? *)')).toThrow(/only rate/);
  });

  test('prod keeps its data; unknown environments are refused', () => {
    const prod = synth('prod');
    for (const t of Object.values(prod.findResources('AWS::DynamoDB::Table'))) expect(t.DeletionPolicy).toBe('Retain');
    expect(() => resolveConfig((k) => (k === 'env' ? 'staging' : undefined))).toThrow(/Unknown environment/);
    expect(
      resolveConfig((k) => (({ env: 'prod', paymentMode: 'prelaunch' }) as Record<string, string>)[k]).paymentMode,
    ).toBe('prelaunch');
  });
});
