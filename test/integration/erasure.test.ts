import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { RETENTION_DAYS } from '../../domain/privacy';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { checkout, moderate, pay, waitForGeneration } from '../support/orders';
import { api, mediaClient, photo, startTestRuntime, uploadPhoto } from '../support/runtime';

const DAY = 24 * 3600;
const nowSec = () => Math.floor(Date.now() / 1000);

/**
 * The right to be forgotten (POST /api/generation/{id}/delete) and retention stamps. dynalite has no TTL, so the
 * test checks that each record carries the right `expires_at` (the stack test checks the tables' TTL setting).
 */
describe('erasure and retention', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let db: DynamoDBDocumentClient;
  let s3: S3Client;
  let astronaut: string;
  let coffee: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    client = api(runtime.url);
    db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: S3RVER_CREDENTIALS }),
    );
    s3 = mediaClient(runtime);
    astronaut = await uploadPhoto(client, photo('astronaut.png'));
    coffee = await uploadPhoto(client, photo('coffee.png'));
    await moderate(client, [astronaut, coffee]);
  });
  afterAll(async () => {
    await runtime?.idle();
    db?.destroy();
    s3?.destroy();
    await runtime?.close();
  });

  const get = async (table: string, key: Record<string, string>) =>
    (
      await db.send(
        new GetCommand({ TableName: runtime.env[`${table.toUpperCase()}_TABLE`], Key: key, ConsistentRead: true }),
      )
    ).Item;
  const keys = async (prefix: string) =>
    (
      (await s3.send(new ListObjectsV2Command({ Bucket: runtime.env.MEDIA_BUCKET, Prefix: prefix }))).Contents ?? []
    ).map((o) => o.Key);
  const expectExpiry = (item: Record<string, unknown> | undefined, days: number) => {
    expect(typeof item?.expires_at).toBe('number');
    expect(Math.abs((item!.expires_at as number) - (nowSec() + days * DAY))).toBeLessThan(600);
  };

  test('records carry their expiry: unpaid orders, sign-ups, image records, jobs; a paid order loses it', async () => {
    expectExpiry(await get('images', { image_hash: astronaut }), RETENTION_DAYS.imageRecords);
    const jobs = await db.send(new ScanCommand({ TableName: runtime.env.JOBS_TABLE }));
    expect(jobs.Items?.length).toBeGreaterThan(0);
    for (const job of jobs.Items ?? []) expectExpiry(job, RETENTION_DAYS.jobs);

    const unpaid = await checkout(client, 'later@example.com', [coffee], ['anime']);
    expectExpiry(await get('orders', { order_id: unpaid.order_id }), RETENTION_DAYS.unpaidOrders);
    const paid = await checkout(client, 'now@example.com', [coffee], ['anime']);
    await pay(runtime, paid.session_id);
    const order = await get('orders', { order_id: paid.order_id });
    expect(order?.paid_at).toBeDefined();
    expect(order?.expires_at).toBeUndefined();

    expect((await client.post('/api/preview-signup', { email: 'Launch@Example.com', image_hash: coffee })).status).toBe(
      201,
    );
    expectExpiry(await get('signups', { signup_id: `launch@example.com#${coffee}` }), RETENTION_DAYS.signups);
    await waitForGeneration(client, paid.order_id);
  });

  test('deleting an order removes its photos, images and e-mail (not a photo another paid order holds) and its sign-ups', async () => {
    const mine = await checkout(client, 'Forget.Me@example.com', [astronaut, coffee], ['anime', 'comic']);
    await pay(runtime, mine.session_id);
    expect((await waitForGeneration(client, mine.order_id)).status).toBe('completed');
    // Someone else paid for an order with the coffee photo too: it stays for them.
    const theirs = await checkout(client, 'someone@example.com', [coffee], ['anime']);
    await pay(runtime, theirs.session_id);
    await waitForGeneration(client, theirs.order_id);
    expect(
      (await client.post('/api/preview-signup', { email: 'forget.me@example.com', image_hash: astronaut })).status,
    ).toBe(201);
    expect(
      (await client.post('/api/preview-signup', { email: 'keep.me@example.com', image_hash: astronaut })).status,
    ).toBe(201);
    expect((await keys(`outputs/${astronaut}/`)).length).toBe(2);
    expect((await client.get(`/api/image/${astronaut}`)).status).toBe(200);

    const res = await client.post(`/api/generation/${mine.order_id}/delete`, {});
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual({
      photos_deleted: 1,
      photos_kept: 1,
      files_deleted: expect.any(Number),
      email_removed: true,
      signups_deleted: 1,
    });
    expect(res.body.deleted.files_deleted).toBeGreaterThanOrEqual(3); // the upload and two generated images, plus previews

    // The astronaut's files are gone; the coffee photo another paid order holds is not.
    expect(await keys(`uploads/${astronaut}`)).toEqual([]);
    expect(await keys(`previews/${astronaut}/`)).toEqual([]);
    expect(await keys(`outputs/${astronaut}/`)).toEqual([]);
    expect(await get('images', { image_hash: astronaut })).toBeUndefined();
    expect(await keys(`uploads/${coffee}`)).toEqual([`uploads/${coffee}`]);
    expect((await client.get(`/api/image/${astronaut}`)).status).toBe(404);
    expect((await client.get(`/api/image/${coffee}`)).status).toBe(200);

    // The e-mail address is gone from the order and its generation; accounting figures stay.
    const order = await get('orders', { order_id: mine.order_id });
    expect(order?.email).toBeUndefined();
    expect(order).toMatchObject({
      total: expect.any(Number),
      currency: 'usd',
      payment_intent: expect.any(String),
      paid_at: expect.any(String),
      erased_at: expect.any(String),
    });
    const generation = await get('generations', { generation_id: mine.order_id });
    expect(generation?.email).toBeUndefined();
    expect(generation).toMatchObject({
      total: expect.any(Number),
      payment_intent: expect.any(String),
      erased_at: expect.any(String),
    });
    expect(JSON.stringify(await db.send(new ScanCommand({ TableName: runtime.env.ORDERS_TABLE })))).not.toMatch(
      /forget\.me/i,
    );
    expect(JSON.stringify(await db.send(new ScanCommand({ TableName: runtime.env.GENERATIONS_TABLE })))).not.toMatch(
      /forget\.me/i,
    );
    const signups = (await db.send(new ScanCommand({ TableName: runtime.env.SIGNUPS_TABLE }))).Items ?? [];
    expect(signups.map((s) => s.email)).not.toContain('forget.me@example.com');
    expect(signups.map((s) => s.email)).toContain('keep.me@example.com');

    // The status link says what happened and when (410, the generation's erasure stamp); an unknown order stays a 404,
    // and so does the gallery of a deleted photo.
    const status = await client.get(`/api/generation/${mine.order_id}`);
    expect(status).toEqual({
      status: 410,
      body: {
        detail: 'The photos and images of this order were deleted at your request.',
        erased_at: generation?.erased_at,
      },
    });
    expect((await client.get('/api/generation/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await client.get(`/api/image/${astronaut}`)).status).toBe(404);
    expect((await client.post('/api/generation/not-an-order/delete', {})).status).toBe(404);
  });

  test('an order still waiting for payment cannot be deleted (409)', async () => {
    const open = await checkout(client, 'waiting@example.com', [coffee], ['anime']);
    const res = await client.post(`/api/generation/${open.order_id}/delete`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/waiting for payment/);
  });
});
