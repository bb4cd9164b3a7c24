import * as path from 'node:path';
import { REPO_ROOT } from '../../domain/repo-paths';
import { LambdaHost } from '../../local/lambda-host';

/** The runtime's warm-up loads every function's code before the first request needs it. */
describe('LambdaHost.preload', () => {
  test("loads each function's module without invoking it", async () => {
    const entry = 'lambdas/routes/available-styles.ts';
    const file = require.resolve(path.join(REPO_ROOT, entry));
    delete require.cache[file];
    const host = new LambdaHost(
      new Map([
        [
          'Fn',
          { logicalId: 'Fn', arn: 'arn:aws:lambda:local:0:function:Fn', entry, environment: {}, timeoutSeconds: 3 },
        ],
      ]),
    );
    expect(require.cache[file]).toBeUndefined();
    await host.preload();
    expect(require.cache[file]).toBeDefined();
  });

  test('a module without a handler fails the preload, as it would its first invocation', async () => {
    const host = new LambdaHost(
      new Map([['Fn', { logicalId: 'Fn', arn: 'a', entry: 'domain/styles.ts', environment: {}, timeoutSeconds: 3 }]]),
    );
    await expect(host.preload()).rejects.toThrow('does not export a handler');
  });
});

/**
 * The runtime's close waits here before it stops the services the handlers call: a handler still running (a task of
 * an aborted execution) must not find DynamoDB closed under it, which failed a suite after its tests had passed.
 */
describe('LambdaHost.drain', () => {
  const host = () =>
    new LambdaHost(
      new Map(
        (['ends-after', 'hangs-once'] as const).map((id) => [
          id,
          {
            logicalId: id,
            arn: `arn:aws:lambda:local:0:function:${id}`,
            entry: `test/local/fixtures/${id}.ts`,
            environment: {},
            timeoutSeconds: 1,
          },
        ]),
      ),
    );

  test('waits for a handler whose caller stopped waiting (timed out), until its code ends', async () => {
    const lambdas = host();
    const { ended } = require('./fixtures/ends-after') as { ended: number[] };
    const err = await lambdas.invoke('ends-after', { ms: 1700 }).catch((e: Error) => e);
    expect((err as Error).name).toBe('Sandbox.Timedout');
    expect(ended).not.toContain(1700);
    await lambdas.drain(20_000);
    expect(ended).toContain(1700);
  });

  test('a handler that never ends holds the drain only for its grace', async () => {
    const lambdas = host();
    void lambdas.invoke('hangs-once', { item: 'drained' }).catch(() => {});
    // Resolves although the handler never will: a drain that waited for it would hit this test's own limit.
    await expect(lambdas.drain(300)).resolves.toBeUndefined();
  }, 10_000);
});
