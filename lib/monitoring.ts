import { Duration, Stack } from 'aws-cdk-lib';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { CAPS, type CapName, ENTRY_METADATA_KEY, METRICS } from '../domain/wiring';
import type { EnvConfig } from './config';
import { addDashboard } from './dashboard';
import { appMetrics, engineMetrics, FIVE_MINUTES, WEBHOOK_ROUTE } from './monitoring-metrics';

export interface MonitoringProps {
  readonly config: EnvConfig;
  readonly orderMachine: sfn.StateMachine;
  readonly jobsMachine: sfn.StateMachine;
  /** The engine's SageMaker endpoint and variant. */
  readonly engineEndpointName: string;
  readonly engineVariantName: string;
  /** The upload route's function: its invocations are the uploads asked for (each may store a photo). */
  readonly uploadFunction: lambda.IFunction;
}

/**
 * Alarms that reach a person and a dashboard with the same figures. One SNS topic per environment; with
 * `alarmEmail` configured, that address is subscribed (AWS sends a confirmation mail first).
 *
 * Alarms: order pipeline failures and timeouts, any failed refund (critical: the customer stays charged), the
 * reconciler's repairs, webhook 5xx, every function's errors and throttles, the engine endpoint's errors and latency,
 * generative model (Bedrock) errors, a global cap on anonymous use reached, and the depth of any dead-letter queue a
 * function has (asynchronous invocations).
 * Every function of the stack is found by walking the construct tree, so a new one is watched without a change here.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: Record<string, cloudwatch.Alarm> = {};
  readonly dashboard: cloudwatch.Dashboard;
  readonly budget: budgets.CfnBudget;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config } = props;
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `ToonZap ${config.envName} alarms`,
      enforceSSL: true,
    });
    if (config.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    const notify = new actions.SnsAction(this.topic);

    // The bill: AWS Budgets tells the alarm topic when the month's actual cost passes 80 % of monthlyBudgetUsd, or
    // its forecast passes 100 % (docs/costs.md says what the default covers). Budgets publishes as its service.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        actions: ['sns:Publish'],
        principals: [new iam.ServicePrincipal('budgets.amazonaws.com')],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    const subscribers = [{ subscriptionType: 'SNS', address: this.topic.topicArn }];
    this.budget = new budgets.CfnBudget(this, 'MonthlyBudget', {
      budget: {
        budgetName: `toonzap-${config.envName}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: config.monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [
        {
          notification: {
            notificationType: 'ACTUAL',
            comparisonOperator: 'GREATER_THAN',
            threshold: 80,
            thresholdType: 'PERCENTAGE',
          },
          subscribers,
        },
        {
          notification: {
            notificationType: 'FORECASTED',
            comparisonOperator: 'GREATER_THAN',
            threshold: 100,
            thresholdType: 'PERCENTAGE',
          },
          subscribers,
        },
      ],
    });

    const app = appMetrics(config.metricsNamespace);

    const alarm = (
      name: string,
      metric: cloudwatch.IMetric,
      description: string,
      threshold = 1,
      evaluationPeriods = 1,
    ) => {
      const a = new cloudwatch.Alarm(this, name, {
        alarmName: `toonzap-${config.envName}-${name}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(notify);
      this.alarms[name] = a;
      return a;
    };

    alarm(
      'OrderPipelineFailed',
      props.orderMachine.metricFailed(FIVE_MINUTES),
      "An order execution failed: undelivered items were refunded (check the RefundFailures alarm) and the customer was e-mailed. Find the cause in the order machine's log group.",
    );
    alarm(
      'OrderPipelineTimedOut',
      props.orderMachine.metricTimedOut(FIVE_MINUTES),
      'An order execution ran past its 2 h timeout: the order may be neither delivered nor refunded. The reconciler should repair it; check the generation record.',
    );
    alarm(
      'JobsFailed',
      props.jobsMachine.metricFailed(FIVE_MINUTES),
      'Moderation or preview jobs are failing (5 or more in 5 minutes): visitors cannot get past the upload step.',
      5,
    );
    alarm(
      'RefundFailed',
      app(METRICS.refundFailures),
      'CRITICAL: a refund failed, so a customer is charged for images they did not get. Refund by hand in Stripe (the order id is in the log line "refund failed").',
    );
    alarm(
      'PaymentDisputed',
      app(METRICS.paymentsDisputed),
      'A customer disputed a payment (a chargeback): answer it in the Stripe Dashboard before its deadline. The order is marked (disputed_at, dispute_id) and the log line "payment disputed" names it.',
    );
    alarm(
      'ReconcilerRepairs',
      app(METRICS.reconcilerRepairs),
      'The reconciler repaired an order or job that something else left unfinished: a bug or an outage to look into.',
    );
    alarm(
      'WebhookServerErrors',
      app(METRICS.serverErrors, 'Sum', { route: WEBHOOK_ROUTE }),
      'The Stripe webhook answered 5xx: Stripe retries, but a paid order waits until it succeeds.',
    );
    alarm(
      'EngineErrors',
      app(METRICS.engineErrors),
      'Engine calls are failing (5 or more in 5 minutes): previews and paid renders are being retried or refunded.',
      5,
    );
    alarm(
      'ModelErrors',
      app(METRICS.modelErrors),
      'Generative model (Bedrock) calls are failing (3 or more in 5 minutes): generative styles are being retried, refused or refunded.',
      3,
    );
    alarm(
      'ModelMisconfigured',
      app(METRICS.modelMisconfigured),
      "The account may not call the generative model (access denied, no Marketplace subscription, profile-only model called on demand, model not found): paid generative items wait and are refunded at their order's deadline. Fix it as docs/bedrock.md says; waiting items are retried and delivered.",
    );
    // A rate, not a count: a few failures of many checks are the gate doing its job; a quarter failing means the
    // model (or its configuration) went bad, and paid generative items are being retried and refunded.
    const qualityFailureRate = new cloudwatch.MathExpression({
      expression: 'IF(checks >= 4, failures / checks, 0)',
      usingMetrics: { failures: app(METRICS.qualityFailures), checks: app(METRICS.qualityChecks) },
      ...FIVE_MINUTES,
      label: 'Quality gate failure rate',
    });
    alarm(
      'QualityGateFailureRate',
      qualityFailureRate,
      'A quarter or more of the paid generative images checked in 5 minutes (at least 4) failed the quality gate (blank, flat, not the photo\'s structure, or a face lost): they are retried with new seeds and refunded after 3 tries. Look at the model\'s outputs (log line "quality gate failed") and its configuration.',
      0.25,
    );

    // Global caps on anonymous use (domain/wiring.ts CAPS): a refusal means visitors are seeing sample tiles or
    // "We're very busy" right now, from real demand or one host's flood. One alarm for any cap, summed.
    const caps = Object.keys(CAPS) as CapName[];
    const capRefusals = Object.fromEntries(caps.map((cap, i) => [`r${i}`, app(METRICS.capRefusals, 'Sum', { cap })]));
    alarm(
      'GlobalCapReached',
      new cloudwatch.MathExpression({
        expression: `SUM([${Object.keys(capRefusals).join(', ')}])`,
        usingMetrics: capRefusals,
        period: Duration.minutes(5),
        label: 'Requests refused by a global cap',
      }),
      'A global cap on anonymous use was reached (metric CapRefusals, dimension cap): previews show their sample and moderation or upload registration answer 429 until the window (UTC hour or day) ends. Paid orders are not affected. If it is real demand, raise the cap (domain/config.ts, README "Configuration"); if one source, look at the WAF.',
    );

    const engine = { EndpointName: props.engineEndpointName, VariantName: props.engineVariantName };
    const sagemaker = engineMetrics(engine);
    alarm(
      'EngineEndpoint5xx',
      sagemaker('Invocation5XXErrors', 'Sum'),
      'The engine endpoint answered 5xx (model container errors).',
    );
    // ModelLatency is in microseconds: a p90 over 60 s for 15 minutes means renders crawl (cold starts, overload).
    alarm(
      'EngineLatency',
      sagemaker('ModelLatency', 'p90'),
      "The engine endpoint's p90 latency stayed over 60 s for 15 minutes.",
      60_000_000,
      3,
    );

    // The app's own functions (tagged with their source module), not CDK's deploy-time helpers.
    const functions = Stack.of(this)
      .node.findAll()
      .filter(
        (c): c is lambda.Function =>
          c instanceof lambda.Function &&
          Boolean((c.node.defaultChild as lambda.CfnFunction).getMetadata(ENTRY_METADATA_KEY)),
      );
    for (const fn of functions) {
      const name = fn.node.path.split('/').slice(1).join('');
      alarm(
        `${name}Errors`,
        fn.metricErrors(FIVE_MINUTES),
        `${fn.node.path}: the function failed (an error or a timeout).`,
      );
      alarm(
        `${name}Throttles`,
        fn.metricThrottles(FIVE_MINUTES),
        `${fn.node.path}: invocations were throttled (account concurrency used up).`,
      );
      if (fn.deadLetterQueue) {
        alarm(
          `${name}DeadLetters`,
          fn.deadLetterQueue.metricApproximateNumberOfMessagesVisible(FIVE_MINUTES),
          `${fn.node.path}: asynchronous invocations failed for good and wait in its dead-letter queue.`,
        );
      }
    }

    this.dashboard = addDashboard(this, {
      config,
      orderMachine: props.orderMachine,
      jobsMachine: props.jobsMachine,
      uploadFunction: props.uploadFunction,
      engine,
      functions,
      alarms: Object.values(this.alarms),
      qualityFailureRate,
    });
  }
}
