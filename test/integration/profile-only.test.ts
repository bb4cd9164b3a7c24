import { CONTROL_STRUCTURE_MODEL_ID } from '../../domain/generative';
import { ENV } from '../../domain/wiring';
import { startMisconfiguredModel } from '../support/misconfigured-model';
import { photo } from '../support/runtime';

/**
 * An operator configured the plain id of a model offered only through inference profiles (issue 22): synthesized
 * into the stack as `-c generativeSettings` would be, so the order path itself calls it, and the local Bedrock answers
 * as AWS does (ValidationException, "on-demand throughput isn't supported"). That is the operator's problem, not the
 * photo's: the alarm metric is counted, nothing is remembered as refused, the paid item waits instead of being
 * refunded, and once the model id names the inference profile it is delivered.
 */
describe('generative model configured by its plain id (profile only)', () => {
  let model: Awaited<ReturnType<typeof startMisconfiguredModel>>;

  beforeAll(async () => {
    model = await startMisconfiguredModel({ generativeSettings: { '3d': { modelId: CONTROL_STRUCTURE_MODEL_ID } } });
  });
  afterAll(() => model?.close());

  test('the paid item waits (no refund, nothing refused), then is delivered through the profile', async () => {
    // The stack was synthesized with the plain id: every function calls the model by it.
    const { runtime } = model;
    const styles = JSON.parse(runtime.env[ENV.generativeStyles]) as Record<string, { modelId: string }>;
    expect(styles['3d'].modelId).toBe(CONTROL_STRUCTURE_MODEL_ID);

    const hash = await model.photo(photo('grace_hopper.jpg'), 'image/jpeg');
    // The 3d item is refused by the account once more and waits, shown queued.
    const orderId = await model.orderWaiting(hash, 'profile-only@example.com', (g) => (g.queued ?? 0) > 0);

    // The operator names the inference profile, as AWS's error says: the next retry (at most 30 s later) draws it.
    const fixed = { ...styles, '3d': { ...styles['3d'], modelId: `us.${CONTROL_STRUCTURE_MODEL_ID}` } };
    process.env[ENV.generativeStyles] = runtime.env[ENV.generativeStyles] = JSON.stringify(fixed);
    await model.expectDelivered(orderId, hash);
  });
});
