import { AsyncLocalStorage } from 'node:async_hooks';

/** The key Lambda's runtime files an invocation's request id under (as @aws/lambda-invoke-store names it). */
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
type Context = Record<PropertyKey, unknown>;

/**
 * What Lambda's Node.js runtime provides where one execution environment serves several invocations at once: a
 * per-invocation store at `globalThis.awslambda.InvokeStore`. Powertools keeps log keys, the Lambda context and
 * metrics in it when AWS_LAMBDA_MAX_CONCURRENCY is set, so the local runtime, which runs every invocation in one
 * process, gives each its own. Known limit (Node 20 here): a handler that awaits an in-process call which starts
 * another invocation (the webhook starting an execution) can continue in that invocation's store, so a later line may
 * carry the other's keys. On Lambda (one invocation per environment at a time) this cannot happen.
 */
class LocalInvokeStore {
  private readonly als = new AsyncLocalStorage<Context>();
  getContext(): Context | undefined {
    return this.als.getStore();
  }
  hasContext(): boolean {
    return this.als.getStore() !== undefined;
  }
  get<T = unknown>(key: PropertyKey): T | undefined {
    return this.als.getStore()?.[key] as T | undefined;
  }
  set(key: PropertyKey, value: unknown): void {
    const store = this.als.getStore();
    if (!store) throw new Error('No invocation context');
    store[key] = value;
  }
  run<T>(context: Context, fn: () => T): T {
    return this.als.run(context, fn);
  }
  getRequestId(): string {
    return this.get<string>(REQUEST_ID) ?? '-';
  }
  getXRayTraceId(): string | undefined {
    return undefined;
  }
  getTenantId(): string | undefined {
    return undefined;
  }
}

/** The process's invocation store (made once, where the Lambda runtime would have put it). */
export function invokeStore(): { run<T>(requestId: string, fn: () => T): T } {
  const g = globalThis as { awslambda?: { InvokeStore?: LocalInvokeStore } };
  g.awslambda ??= {};
  g.awslambda.InvokeStore ??= new LocalInvokeStore();
  const store = g.awslambda.InvokeStore;
  return { run: (requestId, fn) => store.run({ [REQUEST_ID]: requestId }, fn) };
}
