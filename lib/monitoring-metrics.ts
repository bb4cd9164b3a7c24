import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { type MetricName, SERVICE_NAME } from '../domain/wiring';

/** The route whose 5xx means a payment may go unfulfilled. */
export const WEBHOOK_ROUTE = 'POST /api/stripe-webhook';

/** The period of every alarm and of most graphs. */
export const FIVE_MINUTES = { period: Duration.minutes(5) };

/** The app's own metrics (Powertools EMF in the config's namespace, lambdas/lib/observability.ts), per 5 minutes. */
export function appMetrics(namespace: string) {
  return (name: MetricName, statistic = 'Sum', dimensionsMap: Record<string, string> = {}) =>
    new cloudwatch.Metric({
      namespace,
      metricName: name,
      statistic,
      ...FIVE_MINUTES,
      dimensionsMap: { service: SERVICE_NAME, ...dimensionsMap },
    });
}

/** The engine's SageMaker endpoint and variant, as its metrics' dimensions name them. */
export interface EngineVariant {
  readonly EndpointName: string;
  readonly VariantName: string;
}

/** The engine endpoint's SageMaker metrics, per 5 minutes. */
export function engineMetrics(engine: EngineVariant) {
  return (metricName: string, statistic: string) =>
    new cloudwatch.Metric({
      namespace: 'AWS/SageMaker',
      metricName,
      dimensionsMap: { ...engine },
      statistic,
      ...FIVE_MINUTES,
    });
}
