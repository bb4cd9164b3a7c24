import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { LAMBDA_TIMEOUT_ERRORS } from '../../lib/pipelines';
import { LambdaHost, LambdaTimeout } from '../../local/lambda-host';
import { startStepFunctions } from '../../local/step-functions';
import { readModel, synthesizeLocal } from '../../local/template';

type Json = any;

const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:HangsOnce';
const MACHINE = 'arn:aws:states:us-east-1:000000000000:stateMachine:M';
const fn = (timeoutSeconds: number) =>
  new LambdaHost(
    new Map([
      [
        'HangsOnce',
        {
          logicalId: 'HangsOnce',
          arn: ARN,
          entry: 'test/local/fixtures/hangs-once.ts',
          environment: {},
          timeoutSeconds,
        },
      ],
    ]),
  );

/**
 * A function that runs past its timeout fails as Lambda reports it (Sandbox.Timedout), and the order pipeline's
 * "Generate image" state, as the stack defines it, runs it again rather than giving the paid item up.
 */
describe('a Lambda task past its timeout', () => {
  test('fails with the error Lambda reports to Step Functions', async () => {
    const err = await fn(1)
      .invoke('HangsOnce', { item: 'a' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LambdaTimeout);
    expect((err as Error).name).toBe('Sandbox.Timedout');
    expect((err as Error).message).toMatch(/Task timed out after 1\.00 seconds/);
  });

  test('the time its code takes to load (the init phase) is not counted against it, as on Lambda', async () => {
    const host = new LambdaHost(
      new Map([
        [
          'SlowInit',
          {
            logicalId: 'SlowInit',
            arn: ARN,
            entry: 'test/local/fixtures/slow-init.ts',
            environment: {},
            timeoutSeconds: 1,
          },
        ],
      ]),
    );
    expect(await host.invoke('SlowInit', {})).toBe('answered');
  });

  test("is run again by the order pipeline's retry, and the item goes on", async () => {
    const model = readModel(synthesizeLocal('simulated'));
    const order = model.stateMachines.find((m) => m.logicalId.startsWith('OrderPipelineOrderMachine'))!;
    const generate = order.definition.States['Generate images'].ItemProcessor.States['Generate image'] as Json;
    const timeoutRetry = generate.Retry.find((r: Json) => r.ErrorEquals.includes('Sandbox.Timedout'));
    expect(timeoutRetry.ErrorEquals).toEqual([...LAMBDA_TIMEOUT_ERRORS]);
    // The state as deployed (its retriers and catcher), calling a function that hangs on its first run.
    const definition = {
      StartAt: 'Generate image',
      States: {
        'Generate image': {
          ...generate,
          Resource: ARN,
          Retry: generate.Retry.map((r: Json) => ({ ...r, IntervalSeconds: 1 })),
          ResultPath: '$.result',
        },
        'Record item failure': { Type: 'Fail', Error: 'ItemFailed' },
      },
    };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-timeout-'));
    const sfn = await startStepFunctions({
      dataDir,
      machines: [{ logicalId: 'M', arn: MACHINE, name: 'M', definition }],
      lambdas: fn(1),
    });
    const client = new SFNClient({
      endpoint: sfn.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    try {
      const { executionArn } = await client.send(
        new StartExecutionCommand({ stateMachineArn: MACHINE, input: '{"item":"b"}' }),
      );
      await sfn.idle();
      const done = await client.send(new DescribeExecutionCommand({ executionArn }));
      expect([done.status, done.error, done.cause]).toEqual(['SUCCEEDED', undefined, undefined]);
      expect(JSON.parse(done.output ?? '{}')).toEqual({ item: 'b', result: { item: 'b', attempt: 2 } });
    } finally {
      client.destroy();
      await sfn.close();
    }
  });
});
