import { CONTROL_STRUCTURE_MODEL_ID } from '../../domain/generative';
import { startMisconfiguredModel } from '../support/misconfigured-model';
import { photo } from '../support/runtime';

/**
 * Day one on an account that has no access to the third-party model and is not subscribed to it (issue 22): the local
 * Bedrock answers AccessDeniedException, first for the access, then with AWS's Marketplace wording. That is the
 * operator's problem, not the photo's: the alarm metric is counted, no preview is remembered as refused, and the paid
 * item waits (retried by the order pipeline) instead of being refunded; once the account is fixed it is delivered.
 */
describe('generative model: access denied, then not subscribed', () => {
  let model: Awaited<ReturnType<typeof startMisconfiguredModel>>;

  beforeAll(async () => {
    model = await startMisconfiguredModel({ bedrockUnsubscribedModels: [CONTROL_STRUCTURE_MODEL_ID] });
    // Nor has it access to the model yet (answered first, as AWS checks access before the subscription).
    model.runtime.bedrock.setAccessDenied([CONTROL_STRUCTURE_MODEL_ID]);
  });
  afterAll(() => model?.close());

  test('the paid item waits (no refund, nothing remembered as refused) and is delivered after the fix', async () => {
    const hash = await model.photo(photo('astronaut.png'));
    const orderId = await model.orderWaiting(hash, 'day-one@example.com');

    // The operator grants model access (IAM or the console): still not subscribed, so it keeps waiting, counted.
    model.runtime.bedrock.setAccessDenied([]);
    const denied = model.misconfigured();
    const stillWaiting = await model.waitFor(orderId, () => model.misconfigured() > denied);
    expect(stillWaiting.status).toBe('processing');
    expect(stillWaiting.refund).toBeUndefined();
    expect(stillWaiting.failed ?? []).toEqual([]);

    // The operator subscribes: the next retry (at most 30 s later, with jitter) draws it.
    model.runtime.bedrock.setUnsubscribed([]);
    await model.expectDelivered(orderId, hash);
  });
});
