import { createHash, createHmac } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { MAX_FILE_BYTES } from '../../domain/upload-rules';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { checkout, moderate } from '../support/orders';
import {
  api,
  mediaClient,
  photo,
  sha256,
  startTestRuntime,
  uploadHeaders,
  uploadPhoto,
  waitForJob,
} from '../support/runtime';

/**
 * Issue 10, "bytes are bound to their hash": the upload URL signs the checksum, the length and a write-once
 * condition; a verdict is bound to the object it judged, and every use checks that binding first, because the local
 * S3 (like any S3 emulator) enforces none of the signed conditions. Verdicts and preview sets are made once.
 */
describe('bytes bound to their hash', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let s3: S3Client;
  const bucket = () => runtime.env.MEDIA_BUCKET;
  const keys = async (prefix: string) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix }))).Contents ?? []).map((o) => o.Key);
  const stored = async (hash: string) => {
    try {
      const res = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}` }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch {
      return null;
    }
  };
  /** Writes bytes straight to storage with the SDK, past every URL and check of ours. */
  const overwrite = (hash: string, bytes: Buffer) =>
    s3.send(new PutObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}`, Body: bytes }));

  beforeAll(async () => {
    runtime = await startTestRuntime();
    client = api(runtime.url);
    s3 = mediaClient(runtime);
  });
  afterAll(async () => {
    s3?.destroy();
    await runtime?.idle();
    await runtime?.close();
  });

  test('the presigned PUT signs type, exact length, SHA-256 checksum and If-None-Match: S3 refuses anything else', async () => {
    const bytes = photo('astronaut.png');
    const hash = sha256(bytes);
    const reg = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: bytes.length,
    });
    expect(reg.body.status).toBe('upload');
    const url = new URL(reg.body.url.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual([
      'content-length',
      'content-type',
      'host',
      'if-none-match',
      'x-amz-checksum-sha256',
    ]);
    // The checksum is a signed header, not a query parameter S3 might ignore.
    expect([...url.searchParams.keys()].some((k) => /checksum/i.test(k))).toBe(false);

    const sent = { ...uploadHeaders(hash, 'image/png'), 'content-length': String(bytes.length) };
    expect(sigV4Valid(url, 'PUT', sent)).toBe(true);
    // Each signed condition is part of the signature: change any one and S3 answers SignatureDoesNotMatch.
    const other = photo('coffee.png');
    expect(
      sigV4Valid(url, 'PUT', { ...sent, 'x-amz-checksum-sha256': createHash('sha256').update(other).digest('base64') }),
    ).toBe(false);
    expect(sigV4Valid(url, 'PUT', { ...sent, 'content-length': String(other.length) })).toBe(false);
    expect(sigV4Valid(url, 'PUT', { ...sent, 'if-none-match': '' })).toBe(false);
    expect(sigV4Valid(url, 'PUT', { ...sent, 'content-type': 'image/jpeg' })).toBe(false);

    const put = await fetch(url, {
      method: 'PUT',
      headers: uploadHeaders(hash, 'image/png'),
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    // Checked, the registration's bytes become the photo's stored copy.
    expect(
      (await client.post('/api/upload-image', { image_hash: hash, file_type: 'image/png', file_size: bytes.length }))
        .body,
    ).toEqual({ status: 'exists' });
    expect(sha256((await stored(hash))!)).toBe(hash);
  });

  test('swap: an allowed photo is never re-registered, and bytes written past us are never previewed nor generated', async () => {
    const [a, b] = [photo('chelsea.png'), photo('coffee.png')];
    const [hashA, hashB] = [await uploadPhoto(client, a), await uploadPhoto(client, b)];
    // The upload URL of B, still valid after moderation.
    await moderate(client, [hashA, hashB]);
    for (const h of [hashA, hashB])
      expect((await client.get(`/api/get-moderation/${h}`)).body.moderation).toBe('allowed');

    // Our code hands out no new URL for an allowed photo whose object is still the judged one.
    for (const size of [b.length, 1234]) {
      expect(
        await client.post('/api/upload-image', { image_hash: hashB, file_type: 'image/png', file_size: size }),
      ).toEqual({ status: 200, body: { status: 'exists' } });
    }

    // Bytes change anyway, written straight to storage: previews refuse them, the object goes, the image is invalid.
    const otherPhoto = photo('astronaut.png');
    await overwrite(hashB, otherPhoto);
    const job = await client.post('/api/process-thumbnail', { image_hash: hashB });
    expect(job.status).toBe(200);
    expect(await waitForJob(client, job.body.job_id)).toBe('FAILURE');
    expect(await keys(`previews/${hashB}/`)).toEqual([]);
    expect(await stored(hashB)).toBeNull();
    expect((await client.get(`/api/get-moderation/${hashB}`)).body.moderation).toBe('invalid');
    expect((await client.get(`/api/get-thumbnails/${hashB}`)).status).toBe(403);
    // Re-moderation does not bring the verdict back (the object is gone).
    await moderate(client, [hashB]);
    expect((await client.get(`/api/get-moderation/${hashB}`)).body.moderation).toBe('invalid');

    // Generation: the paid render checks the binding too. A generation for A is made by hand (no pipeline), A's
    // bytes are swapped, and the generate-item task is run on it directly.
    const order = await checkout(client, 'swap@example.com', [hashA], ['sketch']);
    const { getOrder } = await import('../../lambdas/lib/orders');
    const { createGeneration, getGeneration } = await import('../../lambdas/lib/generations');
    await createGeneration((await getOrder(order.order_id))!, 'pi_swap_test');
    await overwrite(hashA, otherPhoto);
    const { handler: generateItem } = await import('../../lambdas/tasks/generate-item');
    expect(await generateItem({ order_id: order.order_id, image_hash: hashA, style: 'sketch' })).toEqual({
      refused: expect.stringMatching(/changed/),
    });
    const item = Object.values((await getGeneration(order.order_id))!.items)[0];
    expect(item).toMatchObject({ status: 'failed', error: expect.stringMatching(/safety check/) });
    expect(await keys(`outputs/${order.order_id}/`)).toEqual([]);
    expect(await stored(hashA)).toBeNull();
    expect((await client.get(`/api/get-moderation/${hashA}`)).body.moderation).toBe('invalid');
  });

  test('10 re-moderations of a judged photo: 1 Rekognition call and 1 execution; re-previews are reads too', async () => {
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    const calls0 = runtime.rekognitionCalls();
    const executions0 = await jobExecutions();
    for (let i = 0; i < 10; i++) await moderate(client, [hash]);
    expect(runtime.rekognitionCalls() - calls0).toBe(1);
    expect((await jobExecutions()) - executions0).toBe(1);

    const first = await client.post('/api/process-thumbnail', { image_hash: hash });
    expect(await waitForJob(client, first.body.job_id)).toBe('SUCCESS');
    const afterPreviews = await jobExecutions();
    for (let i = 0; i < 5; i++) {
      const again = await client.post('/api/process-thumbnail', { image_hash: hash });
      expect(await waitForJob(client, again.body.job_id)).toBe('SUCCESS');
    }
    expect(await jobExecutions()).toBe(afterPreviews);

    // A verdict whose object vanished is not reused: the execution runs and finds nothing to allow.
    await s3.send(new DeleteObjectCommand({ Bucket: bucket(), Key: `uploads/${hash}` }));
    await moderate(client, [hash]);
    expect((await client.get(`/api/get-moderation/${hash}`)).body.moderation).toBe('invalid');
    expect(runtime.rekognitionCalls() - calls0).toBe(1);
  });

  test('size is checked before anything is read, and every object that fails verification is deleted', async () => {
    // Over the limit, written to a registration's upload key (a PUT that ignored the signed length; the local S3
    // checks none of what the URL signs).
    const big = Buffer.concat([photo('astronaut.png'), Buffer.alloc(MAX_FILE_BYTES)]);
    const bigHash = sha256(big);
    const reg = await client.post('/api/upload-image', {
      image_hash: bigHash,
      file_type: 'image/png',
      file_size: 1000,
    });
    expect(reg.body.status).toBe('upload');
    const proof = decodeURIComponent(new URL(reg.body.url.url).pathname).split('/').slice(2).join('/');
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: proof, Body: big }));
    // Nothing of this size is ever read into memory (the generative renderer reads photos with readObject).
    const { readObject } = await import('../../lambdas/lib/media');
    await expect(readObject(proof)).rejects.toThrow(/too large/);
    // The check of the upload refuses it unread: invalid, no stored copy, and the upload is deleted.
    await moderate(client, [bigHash]);
    expect((await client.get(`/api/get-moderation/${bigHash}`)).body.moderation).toBe('invalid');
    expect(await keys(proof)).toEqual([]);
    expect(await stored(bigHash)).toBeNull();

    // A valid PNG header on garbage: passes the header check, fails the decoder, and is deleted (was kept before).
    const png = photo('astronaut.png');
    const fake = Buffer.concat([png.subarray(0, 33), Buffer.alloc(5000, 0x5a)]);
    const fakeHash = await uploadPhoto(client, fake);
    await moderate(client, [fakeHash]);
    expect((await client.get(`/api/get-moderation/${fakeHash}`)).body.moderation).toBe('invalid');
    expect(await stored(fakeHash)).toBeNull();
  });

  /** Executions of the jobs state machine so far. */
  async function jobExecutions(): Promise<number> {
    const machine = runtime.model.stateMachines.find((m) => !m.logicalId.startsWith('OrderPipeline'));
    const sfn = new SFNClient({
      endpoint: runtime.env.AWS_ENDPOINT_URL_SFN,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    try {
      return ((await sfn.send(new ListExecutionsCommand({ stateMachineArn: machine!.arn }))).executions ?? []).length;
    } finally {
      sfn.destroy();
    }
  }
});

/**
 * S3's check of a presigned (query) SigV4 request, written out from the SigV4 specification: recompute the signature
 * over the request as sent (method, path, query, the signed headers' values) and compare. Uses the local credentials.
 */
function sigV4Valid(url: URL, method: string, headers: Record<string, string>): boolean {
  const q = url.searchParams;
  const signedHeaders = q.get('X-Amz-SignedHeaders')!.split(';');
  const all: Record<string, string> = {
    host: url.host,
    ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  };
  if (signedHeaders.some((h) => !all[h])) return false;
  const enc = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [enc(k), enc(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    method,
    url.pathname,
    query,
    ...signedHeaders.map((h) => `${h}:${all[h].trim()}`),
    '',
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date, region, service] = /^[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(
    q.get('X-Amz-Credential')!,
  )!;
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    q.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  let key: Buffer = createHmac('sha256', `AWS4${S3RVER_CREDENTIALS.secretAccessKey}`).update(date).digest();
  for (const part of [region, service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(toSign).digest('hex') === q.get('X-Amz-Signature');
}
