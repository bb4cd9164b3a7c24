import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { type MetricName, SERVICE_NAME } from '../../domain/wiring';

/**
 * Logs, metrics and traces (Powertools for AWS Lambda), set up once here and driven by the two wrappers:
 * httpHandler (lambdas/lib/http.ts) and taskHandler (lambdas/lib/task.ts). Handlers only name what they work on
 * (logContext) and count what happened (countMetric, timeMetric).
 *
 * Configuration is Powertools' own environment variables: the stack sets POWERTOOLS_SERVICE_NAME,
 * POWERTOOLS_METRICS_NAMESPACE and POWERTOOLS_LOG_LEVEL; the local runtime turns metrics off and logs warnings only
 * (set POWERTOOLS_LOG_LEVEL=INFO or DEBUG before `npm start` to see more).
 */

/** E-mail addresses, and Stripe keys and signing secrets: never written to a log, wherever they appear in a line. */
const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9-]+(\.[A-Z0-9-]+)*\.[A-Z]{2,}/gi;
const STRIPE_SECRET = /\b(sk|rk|whsec)_[A-Za-z0-9_]{8,}/g;
/** Fields whose value is secret or personal whatever it looks like. */
const SECRET_KEYS = new Set([
  'email',
  'customer_email',
  'to',
  'stripe-signature',
  'authorization',
  'cookie',
  'x-origin-verify',
  'secretKey',
  'webhookSecret',
]);

export function redact(text: string): string {
  return text.replace(EMAIL, '[email]').replace(STRIPE_SECRET, '[secret]');
}

export const logger = new Logger({
  serviceName: SERVICE_NAME,
  jsonReplacerFn: (key: string, value: unknown) => {
    if (SECRET_KEYS.has(key) && value !== undefined && value !== null) return '[redacted]';
    return typeof value === 'string' ? redact(value) : value;
  },
});

export const metrics = new Metrics({ serviceName: SERVICE_NAME });

/** Traces each invocation (X-Ray, where the function has active tracing) with the AWS SDK calls as subsegments. */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** What a log line may name: the ids of the things an invocation works on. */
export interface LogIds {
  order_id?: string;
  job_id?: string;
  image_hash?: string;
  style?: string;
  event_id?: string;
}

/** Adds ids to every following log line of this invocation (and as trace annotations). */
export function logContext(ids: LogIds): void {
  const defined = Object.fromEntries(Object.entries(ids).filter(([, v]) => typeof v === 'string' && v !== ''));
  logger.appendKeys(defined);
  for (const [k, v] of Object.entries(defined)) tracer.putAnnotation(k, v as string);
}

/** Counts something that happened (orders paid, images delivered...). */
export function countMetric(name: MetricName, value = 1): void {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
}

/** Records a duration in milliseconds (engine and model latency). */
export function timeMetric(name: MetricName, ms: number): void {
  metrics.addMetric(name, MetricUnit.Milliseconds, Math.round(ms));
}

/** Measures `work` under `latency`; a failure counts under `errors` (and is thrown on). */
export async function timed<T>(latency: MetricName, errors: MetricName | null, work: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await work();
  } catch (err) {
    if (errors) countMetric(errors);
    throw err;
  } finally {
    timeMetric(latency, Date.now() - t0);
  }
}

/** The Lambda context parts the wrappers use (the local runtime passes the same). */
export interface InvocationContext {
  awsRequestId: string;
  functionName: string;
  functionVersion?: string;
  invokedFunctionArn: string;
  memoryLimitInMB?: string;
  getRemainingTimeInMillis(): number;
}

/** Each invocation's context, for code deep in a call that needs it (lambdas/lib/idempotency.ts: the time it has left). */
const invocations = new AsyncLocalStorage<InvocationContext>();

/** The context of the invocation this code runs in; undefined outside one (a test calling a library directly). */
export const invocationContext = (): InvocationContext | undefined => invocations.getStore();

/**
 * Runs one invocation instrumented: request id (and the given ids) on every log line, a trace subsegment named after
 * the handler, and the invocation's metrics published at its end, whether it succeeded or not.
 */
export async function instrumented<T>(
  name: string,
  context: InvocationContext | undefined,
  ids: LogIds & { request_id?: string },
  work: () => Promise<T>,
): Promise<T> {
  logger.resetKeys();
  if (context) logger.addContext(context as never);
  logContext(ids);
  if (ids.request_id) logger.appendKeys({ request_id: ids.request_id });
  const segment = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  const sub = segment?.addNewSubsegment(`## ${name}`);
  if (sub) {
    tracer.setSegment(sub);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
  }
  try {
    return await (context ? invocations.run(context, work) : work());
  } catch (err) {
    if (sub) tracer.addErrorAsMetadata(err as Error);
    throw err;
  } finally {
    if (sub && segment) {
      sub.close();
      tracer.setSegment(segment);
    }
    // Only when something was counted: an empty flush only warns.
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    logger.resetKeys();
  }
}
