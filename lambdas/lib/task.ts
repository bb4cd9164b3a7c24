import { type InvocationContext, instrumented, type LogIds } from './observability';

/** Ids a task's input may carry; they go on every log line of the invocation. */
const ID_KEYS = ['order_id', 'job_id', 'image_hash', 'style'] as const;

/**
 * Wraps a Step Functions task function, once for all tasks: the Lambda request id and the ids found in the input
 * (order, job, image, style) on every log line, a trace subsegment, metrics published at the end. Errors are thrown
 * on unchanged: the state machine's Retry and Catch match them by name.
 */
export function taskHandler<I, O>(
  name: string,
  fn: (input: I) => Promise<O>,
): (input: I, context?: InvocationContext) => Promise<O> {
  return (input, context) => {
    const ids: LogIds = {};
    if (input && typeof input === 'object') {
      for (const key of ID_KEYS) {
        const value = (input as Record<string, unknown>)[key];
        if (typeof value === 'string') ids[key] = value;
      }
    }
    return instrumented(name, context, { ...ids, request_id: context?.awsRequestId }, () => fn(input));
  };
}
