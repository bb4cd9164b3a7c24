import { AsyncLocalStorage } from 'node:async_hooks';

/** The key Lambda's runtime files an invocation's request id under (as @aws/lambda-invoke-store names it). */
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
type Context = Record<PropertyKey, unknown>;

/**
 * What Lambda's Node.js runtime provides where one execution environment serves several invocations at once: a
 * per-invocation store at `globalThis.awslambda.InvokeStore`. Powertools keeps log keys, the Lambda context and
 * metrics in it when AWS_LAMBDA_MAX_CONCURRENCY is set, so the local runtime, which runs every invocation in one
 * process, gives each its own. Only what Powertools calls is here. Known limit (Node 20 here): a handler that awaits an
 * in-process call which starts another invocation (the webhook starting an execution) can continue in that
 * invocation's store, so a later line may carry the other's keys. On Lambda (one invocation per environment at a
 * time) this cannot happen.
 */
class LocalInvokeStore {
  private readonly als = new AsyncLocalStorage<Context>();
  run = <T>(context: Context, fn: () => T): T => this.als.run(context, fn);
  hasContext = () => this.als.getStore() !== undefined;
  get = (key: PropertyKey) => this.als.getStore()?.[key];
  set(key: PropertyKey, value: unknown): void {
    const store = this.als.getStore();
    if (!store) throw new Error('No invocation context');
    store[key] = value;
  }
  /** No X-Ray here (tracing is off locally). */
  getXRayTraceId = (): string | undefined => undefined;
}

const store = new LocalInvokeStore();

/**
 * The process's invocation store, where the Lambda runtime puts it. Put there again at each invocation: the AWS SDK
 * installs @aws/lambda-invoke-store's own at its first call (one shared by every invocation, as AWS_LAMBDA_MAX_CONCURRENCY
 * is not set yet when the emulators are made), and Powertools reads the global at each use.
 */
export function invokeStore(): { run<T>(requestId: string, fn: () => T): T } {
  const g = globalThis as { awslambda?: { InvokeStore?: LocalInvokeStore } };
  g.awslambda ??= {};
  g.awslambda.InvokeStore = store;
  return { run: (requestId, fn) => store.run({ [REQUEST_ID]: requestId }, fn) };
}
