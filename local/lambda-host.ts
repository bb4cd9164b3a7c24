import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { REPO_ROOT } from '../domain/repo-paths';
import { invokeStore } from './invoke-store';
import type { LocalFunction } from './template';

type Handler = (event: unknown, context: object) => Promise<unknown>;

/**
 * Runs the template's functions in this process: loads the module named in each function's metadata and
 * calls its `handler` with a Lambda-like context and the function's timeout.
 */
export class LambdaHost {
  private readonly cache = new Map<string, Handler>();
  /** Handlers still running, timed out or not: a timed-out handler's code goes on until it ends, as its calls do. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(readonly functions: Map<string, LocalFunction>) {}

  byArn = (arn: string) => [...this.functions.values()].find((fn) => fn.arn === arn);

  private load(fn: LocalFunction): Handler {
    let handler = this.cache.get(fn.logicalId);
    if (!handler) {
      const mod = require(path.join(REPO_ROOT, fn.entry)) as { handler?: Handler };
      if (typeof mod.handler !== 'function') throw new Error(`${fn.entry} does not export a handler`);
      handler = mod.handler;
      this.cache.set(fn.logicalId, handler);
    }
    return handler;
  }

  /**
   * Loads every function's module now, one per turn of the event loop so requests are still served meanwhile: the
   * first request to each route then does not pay for loading (and compiling) its code, as a Lambda whose
   * environment is already initialised would not.
   */
  async preload(): Promise<void> {
    for (const fn of this.functions.values()) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.load(fn);
    }
  }

  async invoke(functionId: string, event: unknown): Promise<unknown> {
    const fn = this.functions.get(functionId);
    if (!fn) throw new Error(`Unknown function ${functionId}`);
    // The code is loaded first, as Lambda's init phase: the function's timeout counts its invocation only.
    const handler = this.load(fn);
    const deadline = Date.now() + fn.timeoutSeconds * 1000;
    const context = {
      awsRequestId: randomUUID(),
      functionName: fn.logicalId,
      invokedFunctionArn: fn.arn,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    const timedOut = `RequestId: ${context.awsRequestId} Error: Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LambdaTimeout(`${timedOut} (${fn.logicalId})`)), fn.timeoutSeconds * 1000);
    });
    // Each invocation in its own invocation store, as Lambda's runtime does where one environment serves several
    // invocations at once: Powertools keeps log keys and metrics per invocation there, so concurrent handlers in
    // this one process never see each other's request or order ids.
    const run = (async () => invokeStore().run(context.awsRequestId, () => handler(event, context)))();
    const tracked = run.then(
      () => {},
      () => {},
    );
    this.running.add(tracked);
    void tracked.then(() => this.running.delete(tracked));
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Resolves when no handler is running, or after `graceMs`: the runtime waits here before it stops the services
   * the handlers call, so a handler that outlives its caller (an aborted execution's task) does not write to a
   * closed database.
   */
  async drain(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.running.size && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(this.running),
        new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
    }
  }
}

/** What Lambda reports to Step Functions when a function runs past its timeout. */
export class LambdaTimeout extends Error {
  override name = 'Sandbox.Timedout';
}
