import sharp from 'sharp';
import type { LocalRuntime } from '../../local/runtime';
import { checkout, moderate, pay, waitForGeneration } from '../support/orders';
import { type Api, api, photo, sha256, startTestRuntime, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * The global caps on anonymous use (lambdas/lib/caps.ts) through the local runtime, started with small limits: past
 * each cap the product degrades as the spec allows (429 with Retry-After where a request is refused, preview tiles
 * keep their sample), never a 5xx, and a paid order is still delivered. A 1:600 photo is refused before any model.
 */
type Thumbnail = { style: { id: string }; image: string | null; paused?: true; busy?: true };

describe('global caps', () => {
  let runtime: LocalRuntime & { dataDir: string };
  let client: Api;
  let plain: Api;
  const statuses: number[] = [];

  beforeAll(async () => {
    runtime = await startTestRuntime({
      caps: { uploadsPerHour: 4, moderationImagesPerHour: 3, enginePreviewsPerDay: 1, generativePreviewsPerDay: 0 },
    });
    plain = api(runtime.url);
    // Every answer is kept: none may be a 5xx.
    const kept = (call: (p: string, b?: unknown) => ReturnType<Api['get']>) => async (p: string, b?: unknown) => {
      const res = await call(p, b);
      statuses.push(res.status);
      return res;
    };
    client = { get: kept(plain.get), post: kept(plain.post), cookies: plain.cookies };
  });
  afterAll(async () => {
    await runtime?.close();
  });

  /** A POST of the same visitor, read for its Retry-After header. */
  async function postRaw(path: string, body: unknown) {
    const res = await client.post(path, body);
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body };
  }
  const expectBusy = (res: { status: number; retryAfter: string | null; body: any }) => {
    expect(res.status).toBe(429);
    expect(Number(res.retryAfter)).toBeGreaterThan(0);
    expect(Number(res.retryAfter)).toBeLessThanOrEqual(3600);
    expect(res.body.detail).toMatch(/^We're very busy right now\. Please try again in \d+ minutes?\.$/);
  };

  test('past each cap: 429 with Retry-After, paused tiles, a 1:600 photo refused first, a paid order delivered', async () => {
    // 256×156,250 px (1:600, exactly the pixel limit): a valid PNG the models would refuse.
    const strip = await sharp({
      create: { width: 256, height: 156_250, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const a = await uploadPhoto(client, photo('astronaut.png'));
    const b = await uploadPhoto(client, photo('camera.png'));
    const s = await uploadPhoto(client, strip);

    // Moderation: 3 photos an hour. The strip is refused from its header, never sent to Rekognition.
    await moderate(client, [a]);
    const rekognition = runtime.rekognitionCalls();
    await moderate(client, [b, s]);
    expect(runtime.rekognitionCalls()).toBe(rekognition + 1);
    const refused = await client.get(`/api/get-moderation/${s}`);
    expect(refused.body).toMatchObject({ moderation: 'invalid', reason: expect.stringMatching(/too long and narrow/) });
    expect((await client.get(`/api/get-moderation/${b}`)).body.moderation).toBe('allowed');

    // Uploads: the 4th URL of the hour is handed out, the 5th is refused.
    const c = await uploadPhoto(client, photo('chelsea.png'));
    const d = photo('coffee.png');
    expectBusy(
      await postRaw('/api/upload-image', { image_hash: sha256(d), file_type: 'image/png', file_size: d.length }),
    );
    // Moderation past its cap.
    expectBusy(await postRaw('/api/process-moderation', { image_hashes: [c] }));

    // Previews: the day's one engine render went to the first photo; every tile of the second keeps its sample.
    const job = await client.post('/api/process-thumbnail', { image_hash: b });
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    const tiles = (await client.get(`/api/get-thumbnails/${b}`)).body as Thumbnail[];
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.filter((t) => t.image)).toEqual([]);
    expect(tiles.every((t) => t.paused)).toBe(true);
    const again = await client.post('/api/process-thumbnail', { image_hash: a });
    expect(await waitForJob(client, again.body.job_id)).toBe('SUCCESS');
    const first = (await client.get(`/api/get-thumbnails/${a}`)).body as Thumbnail[];
    expect(first.find((t) => t.style.id === 'comic')?.image).toBeTruthy();
    expect(first.find((t) => t.style.id === '3d')).toMatchObject({ image: null, paused: true });

    // A paid order of the paused photo, an engine style and a generative one: not counted, not refused, delivered.
    const order = await checkout(client, 'caps@example.com', [b], ['comic', '3d']);
    await pay(runtime, order.session_id);
    const generation = await waitForGeneration(client, order.order_id);
    expect(generation.status).toBe('completed');
    expect(generation.images.map((i) => i.styleId).sort()).toEqual(['3d', 'comic']);

    expect(statuses.filter((st) => st >= 500)).toEqual([]);
  });
});
