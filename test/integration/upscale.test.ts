import sharp from 'sharp';
import { FAST_UPSCALE_MODEL_ID } from '../../domain/generative';
import { PAID_LONG_SIDE } from '../../domain/image-format';
import type { LocalRuntime } from '../../local/runtime';
import { checkout, pay, photoWithPreviews, waitForGeneration } from '../support/orders';
import { type Api, api, photo, startTestRuntime } from '../support/runtime';

/**
 * The Bedrock upscale service (bedrockUpscaleModelId) through the local runtime: a paid generative image smaller
 * than the paid size is enlarged by it (the stand-in's x4) and delivered at exactly the paid long side; with the
 * account not subscribed to it, lanczos3 enlarges instead and the image is still delivered.
 */
describe('Bedrock upscale service', () => {
  const upscaleId = `us.${FAST_UPSCALE_MODEL_ID}`;
  let runtime: LocalRuntime;
  let client: Api;

  beforeAll(async () => {
    runtime = await startTestRuntime({ bedrockUpscaleModelId: upscaleId, bedrockRequestsPerMinute: 120 });
    client = api(runtime.url);
  });
  afterAll(() => runtime?.close());

  async function buy(name: string, email: string) {
    const hash = await photoWithPreviews(client, photo(name));
    const order = await checkout(client, email, [hash], ['anime']);
    await pay(runtime, order.session_id);
    const generation = await waitForGeneration(client, order.order_id, undefined, 180_000);
    expect(generation.status).toBe('completed');
    const image = generation.images.find((i) => i.styleId === 'anime')!;
    const meta = await sharp(Buffer.from(await (await fetch(image.url)).arrayBuffer())).metadata();
    return Math.max(meta.width!, meta.height!);
  }

  test('a paid anime image is enlarged by the upscale service, once, to exactly the paid long side', async () => {
    const before = runtime.bedrock.upscaleCalls()[upscaleId] ?? 0;
    expect(await buy('coffee.png', 'upscaled@example.com')).toBe(PAID_LONG_SIDE);
    expect((runtime.bedrock.upscaleCalls()[upscaleId] ?? 0) - before).toBe(1);
  });

  test('the account not subscribed to the upscale service: lanczos3 enlarges, the image is still delivered', async () => {
    runtime.bedrock.setUnsubscribed([FAST_UPSCALE_MODEL_ID]);
    try {
      const before = runtime.bedrock.upscaleCalls()[upscaleId] ?? 0;
      expect(await buy('astronaut.png', 'fallback@example.com')).toBe(PAID_LONG_SIDE);
      expect(runtime.bedrock.upscaleCalls()[upscaleId] ?? 0).toBe(before);
    } finally {
      runtime.bedrock.setUnsubscribed([]);
    }
  });
});
