import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';
import { startRuntimeProcess } from '../support/runtime-child';

/**
 * The local Step Functions stores an execution durably before StartExecution answers: a SIGKILL the moment the
 * answer arrives loses nothing, and the next start resumes the execution from its input.
 */
describe('local Step Functions across a crash', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-sfn-restart-'));
  let first: Awaited<ReturnType<typeof startRuntimeProcess>> | undefined;
  let second: Awaited<ReturnType<typeof startTestRuntime>> | undefined;

  afterAll(async () => {
    await first?.kill();
    await second?.idle();
    await second?.close();
  });

  test('an execution acknowledged just before SIGKILL is resumed after the restart and finishes', async () => {
    first = await startRuntimeProcess(dataDir);
    const visitor = api(first.url);
    const hash = await uploadPhoto(visitor, photo('coffee.png'));
    // Registering again checks the upload and stores the photo (the style step would, by starting moderation).
    expect(
      (
        await visitor.post('/api/upload-image', {
          image_hash: hash,
          file_type: 'image/png',
          file_size: photo('coffee.png').length,
        })
      ).body.status,
    ).toBe('exists');
    const sfn = new SFNClient({
      endpoint: first.env.AWS_ENDPOINT_URL_SFN,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const name = `crash-${randomUUID()}`;
    const started = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: first.env.JOBS_MACHINE_ARN,
        name,
        input: JSON.stringify({ kind: 'moderation', image_hashes: [hash] }),
      }),
    );
    await first.kill(); // the instant the start was acknowledged
    first = undefined;
    sfn.destroy();

    second = await startTestRuntime({ dataDir });
    expect(second.resumedExecutions).toContain(name);
    await second.idle();
    const again = new SFNClient({
      endpoint: second.env.AWS_ENDPOINT_URL_SFN,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    expect((await again.send(new DescribeExecutionCommand({ executionArn: started.executionArn }))).status).toBe(
      'SUCCEEDED',
    );
    again.destroy();
    expect((await api(second.url, visitor).get(`/api/get-moderation/${hash}`)).body.moderation).toBe('allowed');
  });
});
