import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { CONTROL_STRUCTURE_MODEL_ID } from '../../domain/generative';
import { ENV, METRICS } from '../../domain/wiring';
import { metrics } from '../../lambdas/lib/observability';
import { checkout, moderate, pay, tableClient, waitForGeneration } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * An operator configured the plain id of a model offered only through inference profiles (issue 22): synthesized
 * into the stack as `-c generativeSettings` would be, so the order path itself calls it, and the local Bedrock answers
 * as AWS does (ValidationException, "on-demand throughput isn't supported"). That is the operator's problem, not the
 * photo's: the alarm metric is counted, nothing is remembered as refused, the paid item waits instead of being
 * refunded, and once the model id names the inference profile it is delivered.
 */
describe('generative model configured by its plain id (profile only)', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let doc: DynamoDBDocumentClient;
  let addMetric: jest.SpyInstance;
  const misconfigured = () => addMetric.mock.calls.filter(([name]) => name === METRICS.modelMisconfigured).length;

  beforeAll(async () => {
    // The handlers run in this process (local/lambda-host.ts): their Powertools Metrics is this one.
    addMetric = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
    runtime = await startTestRuntime({ generativeSettings: { '3d': { modelId: CONTROL_STRUCTURE_MODEL_ID } } });
    client = api(runtime.url);
    doc = tableClient(runtime);
  });
  afterAll(async () => {
    await runtime?.idle();
    await runtime?.close();
    doc?.destroy();
    addMetric?.mockRestore();
  });

  test('the paid item waits (no refund, nothing refused), then is delivered through the profile', async () => {
    // The stack was synthesized with the plain id: every function calls the model by it.
    const styles = JSON.parse(runtime.env[ENV.generativeStyles]) as Record<string, { modelId: string }>;
    expect(styles['3d'].modelId).toBe(CONTROL_STRUCTURE_MODEL_ID);

    const hash = await uploadPhoto(client, photo('grace_hopper.jpg'), 'image/jpeg');
    await moderate(client, [hash]);
    const job = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    expect(misconfigured()).toBeGreaterThanOrEqual(1);
    const record = async () =>
      (await doc.send(new GetCommand({ TableName: runtime.env.IMAGES_TABLE, Key: { image_hash: hash } }))).Item!;
    expect((await record()).previews_refused ?? {}).toEqual({});

    const order = await checkout(client, 'profile-only@example.com', [hash], ['3d', 'comic']);
    await pay(runtime, order.session_id);
    // The 3d item is refused by the account once more and waits (shown queued): the engine's comic is delivered.
    const counted = misconfigured();
    const waiting = await waitForGeneration(
      client,
      order.order_id,
      (g: { images: { styleId: string }[]; queued?: number }) =>
        misconfigured() > counted && (g.queued ?? 0) > 0 && g.images.some((i) => i.styleId === 'comic'),
    );
    expect(waiting.status).toBe('processing');
    expect(waiting.images.map((i) => i.styleId)).toEqual(['comic']);
    expect(waiting.refund).toBeUndefined();
    expect(waiting.failed ?? []).toEqual([]);
    expect((await record()).previews_refused ?? {}).toEqual({});

    // The operator names the inference profile, as AWS's error says: the next retry (at most 30 s later) draws it.
    const fixed = { ...styles, '3d': { ...styles['3d'], modelId: `us.${CONTROL_STRUCTURE_MODEL_ID}` } };
    process.env[ENV.generativeStyles] = runtime.env[ENV.generativeStyles] = JSON.stringify(fixed);
    const done = await waitForGeneration(client, order.order_id, undefined, 90_000);
    expect(done.status).toBe('completed');
    expect(done.images.map((i) => i.styleId).sort()).toEqual(['3d', 'comic']);
    expect(done.refund).toBeUndefined();
    expect(done.failed ?? []).toEqual([]);
    expect((await record()).previews_refused ?? {}).toEqual({});
  });
});
