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
