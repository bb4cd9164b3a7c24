import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { CAPS, type CapName, METRICS, type MetricName, SERVICE_NAME } from '../domain/wiring';
import type { EnvConfig } from './config';
import { appMetrics, type EngineVariant, engineMetrics, FIVE_MINUTES, WEBHOOK_ROUTE } from './monitoring-metrics';

export interface DashboardProps {
  readonly config: EnvConfig;
  readonly orderMachine: sfn.StateMachine;
  readonly jobsMachine: sfn.StateMachine;
  /** The upload route's function: its invocations are the uploads asked for. */
  readonly uploadFunction: lambda.IFunction;
  readonly engine: EngineVariant;
  /** The app's own functions (lib/monitoring.ts finds them). */
  readonly functions: lambda.Function[];
  readonly alarms: cloudwatch.Alarm[];
  readonly qualityFailureRate: cloudwatch.IMetric;
}

/** The operator's dashboard (lib/monitoring.ts): the alarms' figures, what the bill grows with, every alarm's state. */
export function addDashboard(scope: Construct, props: DashboardProps): cloudwatch.Dashboard {
  const { config } = props;
  const app = appMetrics(config.metricsNamespace);
  const sagemaker = engineMetrics(props.engine);
  const caps = Object.keys(CAPS) as CapName[];
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', { dashboardName: `toonzap-${config.envName}` });
  const sums = (...names: MetricName[]) => names.map((n) => app(n));
  // What the bill grows with, per UTC day: every model, engine and Rekognition call records its latency (timed() in
  // lambdas/lib/observability.ts, failures too), so the sample count is the number of calls; uploads asked for are
  // the upload route's invocations.
  const day = Duration.days(1);
  const calls = (name: MetricName, label: string) =>
    new cloudwatch.Metric({
      namespace: config.metricsNamespace,
      metricName: name,
      statistic: 'SampleCount',
      period: day,
      label,
      dimensionsMap: { service: SERVICE_NAME },
    });
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Spend drivers per day (calls)',
      left: [
        calls(METRICS.modelLatency, 'Bedrock model calls'),
        calls(METRICS.engineLatency, 'Engine renders (SageMaker invocations)'),
        calls(METRICS.moderationLatency, 'Rekognition calls'),
        props.uploadFunction.metricInvocations({ period: day, label: 'Uploads asked for' }),
      ],
      period: day,
      width: 24,
    }),
    new cloudwatch.GraphWidget({
      title: 'Orders',
      left: sums(
        METRICS.ordersPaid,
        METRICS.imagesDelivered,
        METRICS.itemsRefunded,
        METRICS.refundFailures,
        METRICS.paymentsDisputed,
      ),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Moderation and previews',
      left: sums(METRICS.moderationRefusals, METRICS.previewsMade),
      width: 12,
    }),
    new cloudwatch.SingleValueWidget({
      title: 'Global caps: units used and requests refused, last 24 h (anonymous use)',
      metrics: caps.flatMap((cap) => [
        app(METRICS.capUse, 'Sum', { cap }).with({ period: Duration.days(1), label: `${cap} used` }),
        app(METRICS.capRefusals, 'Sum', { cap }).with({ period: Duration.days(1), label: `${cap} refused` }),
      ]),
      width: 24,
      height: 4,
    }),
    new cloudwatch.GraphWidget({
      title: 'Quality gate (paid generative images)',
      left: sums(METRICS.qualityChecks, METRICS.qualityFailures),
      right: [props.qualityFailureRate],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Engine and model latency (ms, p90)',
      left: [
        app(METRICS.engineLatency, 'p90'),
        app(METRICS.modelLatency, 'p90'),
        app(METRICS.moderationLatency, 'p90'),
      ],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Errors',
      left: [
        ...sums(
          METRICS.engineErrors,
          METRICS.modelErrors,
          METRICS.modelMisconfigured,
          METRICS.upscaleFallbacks,
          METRICS.reconcilerRepairs,
        ),
        app(METRICS.serverErrors, 'Sum', { route: WEBHOOK_ROUTE }),
      ],
      right: [sagemaker('Invocation5XXErrors', 'Sum'), sagemaker('Invocation4XXErrors', 'Sum')],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Pipelines',
      left: [
        props.orderMachine.metricSucceeded(FIVE_MINUTES),
        props.orderMachine.metricFailed(FIVE_MINUTES),
        props.orderMachine.metricTimedOut(FIVE_MINUTES),
        props.jobsMachine.metricFailed(FIVE_MINUTES),
      ],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Lambda errors and throttles',
      left: props.functions.map((fn) => fn.metricErrors({ ...FIVE_MINUTES, label: fn.node.id })),
      right: props.functions.map((fn) => fn.metricThrottles({ ...FIVE_MINUTES, label: fn.node.id })),
      width: 12,
    }),
    new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24, height: 8 }),
  );
  return dashboard;
}
