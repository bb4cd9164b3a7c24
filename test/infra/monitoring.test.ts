import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CAPS, ENTRY_METADATA_KEY, METRICS, SERVICE_NAME } from '../../domain/wiring';
import { buildToonZap } from '../../lib/app';
import { ENVIRONMENTS } from '../../lib/config';
import { WEBHOOK_ROUTE } from '../../lib/monitoring-metrics';

describe('monitoring', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { main, edge } = buildToonZap(
    app,
    { ...ENVIRONMENTS.prod, alarmEmail: 'ops@toonzap.example' },
    { account: '123456789012', region: 'eu-west-1' },
  );
  const template = Template.fromStack(main);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any; Metadata?: any }>;
  const alarms = Object.values(resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => r.Properties);
  const byName = (suffix: string) => alarms.find((a) => a.AlarmName === `toonzap-prod-${suffix}`);
  const topicId = main.getLogicalId(main.monitoring.topic.node.defaultChild as never);

  test('the alarms that reach a person', () => {
    const names = alarms
      .map((a) => a.AlarmName.replace('toonzap-prod-', ''))
      .filter((n) => !/(Errors|Throttles)$/.test(n) || /^(Webhook|Engine|Model)/.test(n))
      .sort();
    expect(names).toEqual([
      'EngineEndpoint5xx',
      'EngineErrors',
      'EngineLatency',
      'GlobalCapReached',
      'JobsFailed',
      'ModelErrors',
      'ModelMisconfigured',
      'OrderPipelineFailed',
      'OrderPipelineTimedOut',
      'PaymentDisputed',
      'QualityGateFailureRate',
      'ReconcilerRepairs',
      'RefundFailed',
      'WebhookServerErrors',
    ]);
    // Every alarm notifies the environment's topic, which mails the configured address.
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@toonzap.example',
      TopicArn: { Ref: topicId },
    });
  });

  test('a global cap reached alarms: the refusals of every cap, summed', () => {
    const cap = byName('GlobalCapReached');
    expect(cap).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const read = (cap.Metrics as any[]).filter((m) => m.MetricStat);
    expect(read.map((m) => m.MetricStat.Metric.MetricName)).toEqual(Object.keys(CAPS).map(() => METRICS.capRefusals));
    expect(read.map((m) => m.MetricStat.Metric.Dimensions)).toEqual(
      Object.keys(CAPS).map((c) => [
        { Name: 'cap', Value: c },
        { Name: 'service', Value: SERVICE_NAME },
      ]),
    );
    expect(cap.Metrics.find((m: any) => m.Expression).Expression).toMatch(/^SUM\(\[r0, r1, r2, r3, r4\]\)$/);
  });

  test('app metrics are read from the configured namespace with the service dimension the handlers write', () => {
    const refund = byName('RefundFailed');
    expect(refund).toMatchObject({
      Namespace: 'ToonZap/prod',
      MetricName: METRICS.refundFailures,
      Threshold: 1,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
    });
    expect(byName('ReconcilerRepairs')).toMatchObject({ MetricName: 'ReconcilerRepairs' });
    // Every dispute has to be answered in Stripe within days: one is enough to alarm.
    expect(byName('PaymentDisputed')).toMatchObject({ MetricName: METRICS.paymentsDisputed, Threshold: 1 });
    expect(byName('ModelErrors')).toMatchObject({ MetricName: 'ModelErrors' });
    // A model the account may not call: one call in 5 minutes is enough to wake someone.
    expect(byName('ModelMisconfigured')).toMatchObject({
      Namespace: 'ToonZap/prod',
      MetricName: METRICS.modelMisconfigured,
      Threshold: 1,
      Period: 300,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
    });
    // The quality gate's failure rate: failures over checks of the same 5 minutes, from the app's namespace.
    const gate = byName('QualityGateFailureRate')!;
    expect(gate).toMatchObject({ Threshold: 0.25, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const byId = Object.fromEntries((gate.Metrics as any[]).map((m) => [m.Id, m]));
    expect(byId.failures.MetricStat).toMatchObject({
      Metric: { Namespace: 'ToonZap/prod', MetricName: METRICS.qualityFailures },
      Period: 300,
    });
    expect(byId.checks.MetricStat.Metric.MetricName).toBe(METRICS.qualityChecks);
    expect((gate.Metrics as any[]).find((m) => m.Expression)?.Expression).toMatch(/failures \/ checks/);
    expect(byName('WebhookServerErrors')!.Dimensions).toEqual(
      expect.arrayContaining([{ Name: 'route', Value: WEBHOOK_ROUTE }]),
    );
    expect(byName('OrderPipelineFailed')).toMatchObject({ Namespace: 'AWS/States', MetricName: 'ExecutionsFailed' });
    expect(byName('OrderPipelineTimedOut')).toMatchObject({
      Namespace: 'AWS/States',
      MetricName: 'ExecutionsTimedOut',
    });
    expect(byName('EngineEndpoint5xx')).toMatchObject({
      Namespace: 'AWS/SageMaker',
      MetricName: 'Invocation5XXErrors',
    });
  });

  test('every function of the app has an errors and a throttles alarm', () => {
    const fnIds = Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Metadata?.[ENTRY_METADATA_KEY])
      .map(([id]) => id);
    expect(fnIds.length).toBeGreaterThan(20);
    for (const id of fnIds) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarms.filter(
          (a) => a.Namespace === 'AWS/Lambda' && a.MetricName === metric && a.Dimensions?.[0]?.Value?.Ref === id,
        );
        expect(found).toHaveLength(1);
      }
    }
  });

  test('a dashboard with the same figures; tracing on for functions and state machines; a WAF in us-east-1', () => {
    const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const name of [
      METRICS.ordersPaid,
      METRICS.imagesDelivered,
      METRICS.itemsRefunded,
      METRICS.refundFailures,
      METRICS.paymentsDisputed,
      METRICS.moderationRefusals,
      METRICS.previewsMade,
      METRICS.engineLatency,
      METRICS.modelLatency,
      METRICS.modelMisconfigured,
    ]) {
      expect(body).toContain(name);
    }
    for (const r of Object.values(resources).filter(
      (x) => x.Type === 'AWS::Lambda::Function' && x.Metadata?.[ENTRY_METADATA_KEY],
    )) {
      expect(r.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
    for (const r of Object.values(resources).filter((x) => x.Type === 'AWS::StepFunctions::StateMachine')) {
      expect(r.Properties.TracingConfiguration).toEqual({ Enabled: true });
      expect(r.Properties.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    }
    expect(edge.region).toBe('us-east-1');
    const acl = Template.fromStack(edge).toJSON().Resources;
    const [webAcl] = Object.values(acl as Record<string, any>).filter((r) => r.Type === 'AWS::WAFv2::WebACL');
    expect(webAcl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = webAcl.Properties.Rules as any[];
    expect(rules.map((r) => r.Name)).toEqual(['work-routes-per-ip', 'all-routes-per-ip', 'aws-common-rule-set']);
    const work = rules[0].Statement.RateBasedStatement;
    expect(work.Limit).toBeLessThan(rules[1].Statement.RateBasedStatement.Limit);
    expect(JSON.stringify(work.ScopeDownStatement)).toContain('/api/process-moderation');
    expect(JSON.stringify(work.ScopeDownStatement)).toContain('/api/checkout');
    // The distribution uses it (a cross-region reference) and sends the origin secret to the API.
    const dist = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution')!;
    expect(dist.Properties.DistributionConfig.WebACLId).toBeDefined();
    const apiOrigin = dist.Properties.DistributionConfig.Origins.find((o: any) => o.CustomOriginConfig);
    expect(apiOrigin.OriginCustomHeaders[0].HeaderName).toBe('x-origin-verify');
  });
});
