import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { MIN_SHORT_SIDE } from '../../domain/image-format';
import { STYLE_IDS } from '../../domain/styles';
import { moderate } from '../support/orders';
import { api, mediaClient, photo, sha256, startTestRuntime, uploadHeaders, uploadPhoto } from '../support/runtime';

/** Uploads through the local runtime: the same handler code and template as in AWS, with emulators. */
describe('uploads', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let s3: S3Client;
  const bucket = () => runtime.env.MEDIA_BUCKET;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    client = api(runtime.url);
    s3 = mediaClient(runtime);
  });
  afterAll(async () => {
    s3?.destroy();
    await runtime?.close();
  });

  test('health, config and styles answer', async () => {
    expect(await client.get('/api/status')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await client.get('/api/config')).toEqual({
      status: 200,
      body: {
        brand: 'ToonZap',
        paymentMode: 'simulated',
        publishableKey: null,
        supportEmail: 'support@toonzap.example',
        // npm start's Bedrock stand-in draws the generative styles with the engine: the browser must say so.
        generativeStandIn: true,
      },
    });
    const styles = await client.get('/api/available-styles');
    expect(styles.status).toBe(200);
    expect(styles.body.styles.map((s: { id: string }) => s.id)).toEqual([...STYLE_IDS]);
  });

  test("register, PUT to the registration's own URL, register again → exists, the bytes now the stored copy", async () => {
    const bytes = photo('astronaut.png');
    const hash = sha256(bytes);
    const first = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: bytes.length,
    });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('upload');
    const url = new URL(first.body.url.url);
    // Each registration uploads to a key of its own; its bytes become the photo's stored copy once checked.
    expect(url.pathname).toMatch(new RegExp(`^/${bucket()}/uploads/proofs/[A-Za-z0-9_-]{22}$`));
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');

    const put = await fetch(first.body.url.url, {
      method: 'PUT',
      headers: uploadHeaders(hash, 'image/png'),
      body: bytes,
    });
    expect(put.status).toBe(200);

    expect(
      await client.post('/api/upload-image', { image_hash: hash, file_type: 'image/png', file_size: bytes.length }),
    ).toEqual({ status: 200, body: { status: 'exists' } });
    const stored = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}` }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(hash);
    // The registration's own upload was moved, not kept twice.
    const proof = decodeURIComponent(url.pathname).split('/').slice(2).join('/');
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket(), Key: proof }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
  });

  test('a stored object that does not match its hash is removed and asked for again', async () => {
    const real = photo('chelsea.png');
    const hash = sha256(real);
    const first = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: real.length,
    });
    expect(first.body.status).toBe('upload');
    // Someone PUTs different bytes to the URL; S3 emulators check no checksums, so the server must.
    await fetch(first.body.url.url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: photo('coffee.png'),
    });
    const again = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: real.length,
    });
    expect(again.body.status).toBe('upload');
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}` }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
  });

  test('a photo under the minimum size is refused at the style step with its size, and checkout refuses it', async () => {
    // The cat photo shrunk to 120×90: a real picture, just too small to draw a cartoon from.
    const small = await sharp(photo('chelsea.png')).resize(120, 90).png().toBuffer();
    const [hash, big] = [await uploadPhoto(client, small), await uploadPhoto(client, photo('coffee.png'))];
    await moderate(client, [hash, big]);
    const verdict = await client.get(`/api/get-moderation/${hash}`);
    expect(verdict.body).toEqual({
      image_hash: hash,
      moderation: 'invalid',
      reason: `is too small (120×90 px): photos need at least ${MIN_SHORT_SIDE} px on their short side`,
    });
    expect((await client.get(`/api/get-moderation/${big}`)).body.moderation).toBe('allowed');
    // Nothing of it is kept: its object is gone.
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}` }))).rejects.toThrow();

    const order = await client.post('/api/checkout', {
      email: 'small@example.com',
      hashes: [big, hash],
      styles: ['sketch'],
    });
    expect(order.status).toBe(400);
    expect(order.body.detail).toBe(
      `Photo ${hash.slice(0, 12)} is too small (120×90 px): photos need at least ${MIN_SHORT_SIDE} px on their short side.`,
    );
    // Without it, the order goes through.
    expect(
      (await client.post('/api/checkout', { email: 'small@example.com', hashes: [big], styles: ['sketch'] })).status,
    ).toBe(200);
  });

  test('unknown API routes (and wrong methods) are 404 {"message"} as API Gateway answers; the site answers client routes and 404s the rest', async () => {
    expect(await client.get('/api/nope')).toEqual({ status: 404, body: { message: 'Not Found' } });
    expect(await client.get('/api/upload-image')).toEqual({ status: 404, body: { message: 'Not Found' } });
    const home = await fetch(`${runtime.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect((await fetch(`${runtime.url}/pricing`)).status).toBe(200);
    expect((await fetch(`${runtime.url}/no/such/page`)).status).toBe(404);
  });
});
