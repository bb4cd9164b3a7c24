import { randomUUID } from 'node:crypto';
import type { InvocationContext } from '../../lambdas/lib/observability';

/** A Lambda context as the runtime passes one (local/lambda-host.ts): `ms` left of the function's time from now. */
export function lambdaContext(ms = 30_000): InvocationContext {
  const deadline = Date.now() + ms;
  return {
    awsRequestId: randomUUID(),
    functionName: 'test-function',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:test-function',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}
