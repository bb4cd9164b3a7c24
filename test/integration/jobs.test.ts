import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { jobStatusPath } from '../../frontend/src/lib/api';
import { api, mediaClient, photo, sha256, startTestRuntime, uploadPhoto, waitForJob } from '../support/runtime';

/** Moderation and preview jobs run as executions of the synthesized jobs state machine. */
describe('moderation and preview jobs', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let s3: S3Client;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    client = api(runtime.url);
    s3 = mediaClient(runtime);
  });
  afterAll(async () => {
    s3?.destroy();
    await runtime?.close();
  });

  test('a photo is moderated, allowed, and previewed in every style', async () => {
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    const started = await client.post('/api/process-moderation', { image_hashes: [hash] });
    expect(started.status).toBe(200);
    expect(started.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(['PENDING', 'STARTED', 'SUCCESS']).toContain((await client.get(`/api/jobs/${started.body.job_id}`)).body);
    expect(await waitForJob(client, started.body.job_id)).toBe('SUCCESS');
    expect(await client.get(`/api/get-moderation/${hash}`)).toEqual({
      status: 200,
      body: { image_hash: hash, moderation: 'allowed' },
    });
    // The moderation job made the engine's previews (beside the verdict): listed before any thumbnail job.
    const styleList = (await client.get('/api/available-styles')).body.styles as { id: string; aiGenerated: boolean }[];
    const early = await client.get(`/api/get-thumbnails/${hash}`);
    expect(
      early.body.filter((t: { image: string | null }) => t.image).map((t: { style: { id: string } }) => t.style.id),
    ).toEqual(styleList.filter((s) => !s.aiGenerated).map((s) => s.id));

    const thumbs = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(thumbs.status).toBe(200);
    expect(await waitForJob(client, thumbs.body.job_id)).toBe('SUCCESS');
    const list = await client.get(`/api/get-thumbnails/${hash}`);
    expect(list.status).toBe(200);
    const styles = (await client.get('/api/available-styles')).body.styles.map((s: { id: string }) => s.id);
    expect(list.body.map((t: { style: { id: string } }) => t.style.id)).toEqual(styles);
    for (const t of list.body as { image: string }[]) {
      const res = await fetch(t.image, { headers: { origin: runtime.url } });
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe('png');
      expect(Math.max(meta.width!, meta.height!)).toBe(256);
    }
    // Previews exist now: a second thumbnail job is done at once.
    const again = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect((await client.get(`/api/jobs/${again.body.job_id}`)).body).toBe('SUCCESS');
  });

  test('an upload that does not match its hash is never allowed, and its object is removed', async () => {
    const real = photo('coffee.png');
    const hash = sha256(real);
    const reg = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: real.length,
    });
    await fetch(reg.body.url.url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: photo('chelsea.png'),
    });
    // The server hashes the upload (the local S3 checks no checksum): refused, with its reason for the visitor.
    const job = await client.post('/api/process-moderation', { image_hashes: [hash] });
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    expect((await client.get(`/api/get-moderation/${hash}`)).body).toEqual({
      image_hash: hash,
      moderation: 'invalid',
      reason: 'could not be read as a JPG or PNG photo',
    });
    expect((await client.post('/api/process-thumbnail', { image_hash: hash })).status).toBe(403);
    expect((await client.get(`/api/get-thumbnails/${hash}`)).status).toBe(403);
    // Previews the engine rendered while the photo was being checked are not kept.
    await runtime.idle();
    const left = await s3.send(
      new ListObjectsV2Command({ Bucket: runtime.env.MEDIA_BUCKET, Prefix: `previews/${hash}/` }),
    );
    expect(left.KeyCount ?? 0).toBe(0);
  });

  test('a status read with wait=1 is held until the job ends (long polling), as the page reads it', async () => {
    // A photo no other test uploads (bytes after the JPEG's end), so its job really runs.
    const bytes = Buffer.concat([photo('grace_hopper.jpg'), Buffer.from(`long-poll-${Date.now()}`)]);
    const hash = await uploadPhoto(client, bytes, 'image/jpeg');
    const job = (await client.post('/api/process-moderation', { image_hashes: [hash] })).body.job_id as string;
    // Held reads, as the page makes them through the gateway: a handful see the job end (how long each is held is
    // counted in test/lambdas/routes/get-job.test.ts, on fake timers).
    const seen: string[] = [];
    while (seen.length < 40 && seen.at(-1) !== 'SUCCESS') seen.push((await client.get(jobStatusPath(job))).body);
    expect(seen.at(-1)).toBe('SUCCESS');
    expect(seen.length).toBeLessThan(40);
    // A finished job is answered at once, held or not.
    expect(await client.get(jobStatusPath(job))).toEqual({ status: 200, body: 'SUCCESS' });
    expect(await client.get(`/api/jobs/${job}?wait=0`)).toEqual({ status: 200, body: 'SUCCESS' });
    for (const wait of ['yes', '2', '']) {
      const res = await client.get(`/api/jobs/${job}?wait=${wait}`);
      expect(res).toEqual({ status: 400, body: { detail: expect.stringMatching(/^wait must be 1 .* or 0 /) } });
    }
  });

  test('unknown ids and bad bodies get 4xx with a detail', async () => {
    const unknown = 'f'.repeat(64);
    expect(await client.get('/api/jobs/00000000-0000-0000-0000-000000000000')).toEqual({
      status: 404,
      body: { detail: 'Job 00000000-0000-0000-0000-000000000000 not found.' },
    });
    expect((await client.get('/api/jobs/nope')).status).toBe(404);
    expect((await client.get(`/api/get-moderation/${unknown}`)).status).toBe(404);
    expect((await client.get('/api/get-moderation/xyz')).status).toBe(400);
    expect((await client.get(`/api/get-thumbnails/${unknown}`)).status).toBe(404);
    expect((await client.post('/api/process-moderation', { image_hashes: [unknown] })).status).toBe(404);
    expect((await client.post('/api/process-moderation', { image_hashes: [] })).body.detail).toMatch(/non-empty/);
    expect(
      (
        await client.post('/api/process-moderation', {
          image_hashes: Array.from({ length: 51 }, (_, i) => sha256(Buffer.from([i]))),
        })
      ).body.detail,
    ).toMatch(/At most 50/);
    expect((await client.post('/api/process-moderation', { image_hashes: 'abc' })).status).toBe(400);
    expect((await client.post('/api/process-moderation', '{')).status).toBe(400);
    expect((await client.post('/api/process-thumbnail', {})).status).toBe(400);
    expect((await client.post('/api/process-thumbnail', { image_hash: unknown })).status).toBe(404);
  });
});
