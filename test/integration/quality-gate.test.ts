import { HeadObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { PAID_LONG_SIDE } from '../../domain/image-format';
import { ITEM_ERRORS } from '../../domain/orders';
import { mediaKey } from '../../domain/wiring';
import type { LocalRuntime } from '../../local/runtime';
import { type BedrockFaults, startRuntimeBehindBedrockFaults } from '../support/bedrock';
import { checkout, type Generation, moderate, pay, waitForGeneration } from '../support/orders';
import { type Api, mediaClient, photo, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * The quality gate on paid generative images, through the local runtime: its Bedrock stand-in made to answer blank
 * images (runtime.bedrock.setBlankOutputs) or images with the photo's faces painted over (setFacelessOutputs),
 * behind the recording proxy so the seeds asked for can be read. The engine checks them (its `check` operation).
 */
describe('quality gate before delivery', () => {
  let runtime: LocalRuntime;
  let client: Api;
  let faults: BedrockFaults;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // Room for every call of both tests in one minute: the previews' share of the model must not run out here.
    ({ runtime, client, faults, close } = await startRuntimeBehindBedrockFaults({
      paymentMode: 'simulated',
      bedrockRequestsPerMinute: 120,
    }));
  });
  afterAll(() => close?.());

  async function photoWithPreviews(name: string) {
    const hash = await uploadPhoto(client, photo(name), name.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
    await moderate(client, [hash]);
    const job = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    return hash;
  }

  async function buy(hash: string, styles: string[], email: string) {
    const order = await checkout(client, email, [hash], styles);
    await pay(runtime, order.session_id);
    return { ...(await waitForGeneration(client, order.order_id, undefined, 180_000)), order_id: order.order_id };
  }

  /** The 3d item was asked 3 times with new seeds, not delivered and refunded with `error`; `delivered` was. */
  function expectGivenUp(generation: Generation, before: number, hash: string, delivered: string, error: string) {
    const tries = faults.requests.slice(before).filter((r) => r.style === '3d');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.body.seed)).size).toBe(3);
    expect(generation.images.map((i) => i.styleId)).toEqual([delivered]);
    expect(generation.failed).toEqual([expect.objectContaining({ imageHash: hash, styleId: '3d', error })]);
    expect(generation.refund).toMatchObject({ items: 1 });
  }

  test('a model that answers blank images: asked 3 times with new seeds, not delivered, refunded with its reason', async () => {
    const hash = await photoWithPreviews('astronaut.png');
    const before = faults.requests.length;
    runtime.bedrock.setBlankOutputs(3);
    const generation = await buy(hash, ['3d', 'comic'], 'blank@example.com');
    // The engine's comic is delivered; the blank 3d is not, and is refunded with the gate's reason.
    expectGivenUp(generation, before, hash, 'comic', ITEM_ERRORS.quality);
    expect(generation.refund!.amount).toBeGreaterThan(0);
  });

  test('one blank answer: asked again with a new seed and the good image delivered at the paid size', async () => {
    const hash = await photoWithPreviews('coffee.png');
    const before = faults.requests.length;
    runtime.bedrock.setBlankOutputs(1);
    const generation = await buy(hash, ['anime'], 'retried@example.com');

    const tries = faults.requests.slice(before).filter((r) => r.style === 'anime');
    expect(tries).toHaveLength(2);
    expect(tries[1].body.seed).not.toBe(tries[0].body.seed);
    expect(generation.status).toBe('completed');
    expect(generation.refund).toBeUndefined();
    const image = generation.images.find((i) => i.styleId === 'anime')!;
    const meta = await sharp(Buffer.from(await (await fetch(image.url)).arrayBuffer())).metadata();
    // The stand-in answers at the 512-px photo's size: enlarged to the paid size.
    expect(Math.max(meta.width!, meta.height!)).toBe(PAID_LONG_SIDE);
  });

  test('a model that loses the face: asked 3 times with new seeds, not delivered, refunded with the face reason', async () => {
    const hash = await photoWithPreviews('grace_hopper.jpg');
    const before = faults.requests.length;
    runtime.bedrock.setFacelessOutputs(3);
    const generation = await buy(hash, ['3d', 'sketch'], 'faceless@example.com');
    // The structure is kept (the face alone is gone), so only the face check stops it.
    expectGivenUp(generation, before, hash, 'sketch', ITEM_ERRORS.faces);
    // the failed images were deleted, none left under the key a delivered one would have
    const s3 = mediaClient(runtime);
    const head = s3.send(
      new HeadObjectCommand({
        Bucket: runtime.env.MEDIA_BUCKET,
        Key: mediaKey.output(generation.order_id, hash, '3d'),
      }),
    );
    await expect(head).rejects.toMatchObject({ name: 'NotFound' });
    s3.destroy();
  });

  test('one faceless answer: asked again, and the image that keeps the face delivered', async () => {
    const hash = await photoWithPreviews('grace_hopper.jpg');
    const before = faults.requests.length;
    runtime.bedrock.setFacelessOutputs(1);
    const generation = await buy(hash, ['3d'], 'face-kept@example.com');

    const tries = faults.requests.slice(before).filter((r) => r.style === '3d');
    expect(tries).toHaveLength(2);
    expect(tries[1].body.seed).not.toBe(tries[0].body.seed);
    expect(generation.status).toBe('completed');
    expect(generation.refund).toBeUndefined();
    expect(generation.images.map((i) => i.styleId)).toEqual(['3d']);
  });
});
