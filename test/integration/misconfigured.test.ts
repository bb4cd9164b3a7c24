import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { CONTROL_STRUCTURE_MODEL_ID } from '../../domain/generative';
import { METRICS } from '../../domain/wiring';
import { metrics } from '../../lambdas/lib/observability';
import { checkout, moderate, pay, tableClient, waitForGeneration } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * Day one on an account that has no access to the third-party model and is not subscribed to it (issue 22): the local
 * Bedrock answers AccessDeniedException, first for the access, then with AWS's Marketplace wording. That is the operator's problem, not the photo's: the alarm
 * metric is counted, no preview is remembered as refused, and the paid item waits (retried by the order pipeline)
 * instead of being refunded; once the account is fixed it is delivered.
 */
describe('generative model: access denied, then not subscribed', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let doc: DynamoDBDocumentClient;
  let addMetric: jest.SpyInstance;
  const misconfigured = () => addMetric.mock.calls.filter(([name]) => name === METRICS.modelMisconfigured).length;

  beforeAll(async () => {
    // The handlers run in this process (local/lambda-host.ts): their Powertools Metrics is this one (recorded here,
    // not published: metrics are AWS's).
    addMetric = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
    runtime = await startTestRuntime({ bedrockUnsubscribedModels: [CONTROL_STRUCTURE_MODEL_ID] });
    // Nor has it access to the model yet (answered first, as AWS checks access before the subscription).
    runtime.bedrock.setAccessDenied([CONTROL_STRUCTURE_MODEL_ID]);
    client = api(runtime.url);
    doc = tableClient(runtime);
  });
  afterAll(async () => {
    await runtime?.idle();
    await runtime?.close();
    doc?.destroy();
    addMetric?.mockRestore();
  });

  test('the paid item waits (no refund, nothing remembered as refused) and is delivered after the fix', async () => {
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    await moderate(client, [hash]);
    const job = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    // The previews could not be drawn: counted for the alarm, and not held against the photo.
    expect(misconfigured()).toBeGreaterThanOrEqual(1);
    const record = async () =>
      (await doc.send(new GetCommand({ TableName: runtime.env.IMAGES_TABLE, Key: { image_hash: hash } }))).Item!;
    expect((await record()).previews_refused ?? {}).toEqual({});

    const order = await checkout(client, 'day-one@example.com', [hash], ['3d', 'comic']);
    await pay(runtime, order.session_id);
    // The 3d item fails once more on the account, and waits: the engine's comic is delivered meanwhile.
    const counted = misconfigured();
    const waiting = await waitForGeneration(
      client,
      order.order_id,
      (g) => misconfigured() > counted && g.images.some((i) => i.styleId === 'comic'),
    );
    expect(waiting.status).toBe('processing');
    expect(waiting.images.map((i) => i.styleId)).toEqual(['comic']);
    expect(waiting.refund).toBeUndefined();
    expect(waiting.failed ?? []).toEqual([]);
    expect((await record()).previews_refused ?? {}).toEqual({});

    // The operator grants model access (IAM or the console): still not subscribed, so it keeps waiting, counted.
    runtime.bedrock.setAccessDenied([]);
    const denied = misconfigured();
    const stillWaiting = await waitForGeneration(client, order.order_id, () => misconfigured() > denied, 90_000);
    expect(stillWaiting.status).toBe('processing');
    expect(stillWaiting.refund).toBeUndefined();
    expect(stillWaiting.failed ?? []).toEqual([]);

    // The operator subscribes: the next retry (at most 30 s later, with jitter) draws it.
    runtime.bedrock.setUnsubscribed([]);
    const done = await waitForGeneration(client, order.order_id, undefined, 90_000);
    expect(done.status).toBe('completed');
    expect(done.images.map((i) => i.styleId).sort()).toEqual(['3d', 'comic']);
    expect(done.refund).toBeUndefined();
    expect((await record()).previews_refused ?? {}).toEqual({});
  });
});
