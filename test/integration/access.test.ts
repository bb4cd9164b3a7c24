import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { SHARE_CARD } from '../../domain/ownership';
import { RETENTION_DAYS } from '../../domain/privacy';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { checkout, moderate, pay, waitForGeneration } from '../support/orders';
import { api, mediaClient, photo, startTestRuntime, uploadHeaders, uploadPhoto } from '../support/runtime';

const DAY = 24 * 3600;
const nowSec = () => Math.floor(Date.now() / 1000);

/**
 * Who can reach what (docs/architecture.md "Who can see what"), tried as a stranger would: with only a photo's hash
 * (from anywhere: it is computed from the bytes), as a second visitor with the same bytes, and with the links an
 * order hands out (status and share links). Then the right to be forgotten and the retention stamps. dynalite has no
 * TTL, so the test checks each record's `expires_at` (the stack test checks the tables' TTL setting).
 */
describe('access and erasure', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  /** The visitor who uploads and buys. */
  let owner: ReturnType<typeof api>;
  let db: DynamoDBDocumentClient;
  let s3: S3Client;
  let astronaut: string;
  let coffee: string;
  /** The owner's paid order of the astronaut (comic, sketch). */
  let paid: { order_id: string; share: string };

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    owner = api(runtime.url);
    db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: S3RVER_CREDENTIALS }),
    );
    s3 = mediaClient(runtime);
    astronaut = await uploadPhoto(owner, photo('astronaut.png'));
    coffee = await uploadPhoto(owner, photo('coffee.png'));
    await moderate(owner, [astronaut, coffee]);
    const order = await checkout(owner, 'buyer@example.com', [astronaut], ['comic', 'sketch']);
    await pay(runtime, order.session_id);
    const generation = await waitForGeneration(owner, order.order_id);
    expect(generation.status).toBe('completed');
    paid = { order_id: order.order_id, share: generation.images[0].shareId };
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

  test('a second visitor with the same bytes owns their own copy: verdict, previews and an order, not the first one', async () => {
    const second = api(runtime.url);
    const url = await registerAstronaut(second);
    await putBytes(url, photo('astronaut.png'));
    await moderate(second, [astronaut]);
    expect((await second.get(`/api/get-moderation/${astronaut}`)).body.moderation).toBe('allowed');
    const previews = await second.post('/api/process-thumbnail', { image_hash: astronaut });
    expect(previews.status).toBe(200);
    expect((await second.get(`/api/get-thumbnails/${astronaut}`)).status).toBe(200);
    // The stored copy is the one the first upload made; the second proof upload was not kept.
    expect(await keys(`uploads/${astronaut}`)).toEqual([`uploads/${astronaut}`]);
    expect(await keys(keyOf(url))).toEqual([]);
    // Their order delivers their own images, under their own share link; the first buyer's stay the first buyer's.
    const order = await checkout(second, 'second@example.com', [astronaut], ['comic']);
    await pay(runtime, order.session_id);
    const generation = await waitForGeneration(second, order.order_id);
    expect(generation.images.map((i) => i.styleId)).toEqual(['comic']);
    const share = generation.images[0].shareId;
    expect(share).not.toBe(paid.share);
    expect((await second.get(`/api/image/${share}`)).body.map((i: { styleId: string }) => i.styleId)).toEqual([
      'comic',
    ]);
    expect(
      (await second.get(`/api/image/${paid.share}`)).body.map((i: { styleId: string }) => i.styleId).sort(),
    ).toEqual(['comic', 'sketch']);
    expect(await keys(`outputs/${order.order_id}/`)).toEqual([`outputs/${order.order_id}/${astronaut}/comic.png`]);
  });

  test('a crawler reading a share link gets its own picture; the picture is the share card', async () => {
    for (const agent of [
      'Twitterbot/1.0',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    ]) {
      for (const [path, style] of [
        [`/image/${paid.share}/sketch`, 'sketch'],
        [`/image/${paid.share}`, 'comic'],
      ]) {
        const res = await fetch(`${runtime.url}${path}`, { headers: { 'user-agent': agent } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('x-robots-tag')).toBe('noindex');
        const html = await res.text();
        const card = `${runtime.url}/api/share-card/${paid.share}/${style}`;
        expect(meta(html, 'og:image')).toBe(card);
        expect(meta(html, 'twitter:image')).toBe(card);
        expect(meta(html, 'og:url')).toBe(`${runtime.url}${path}`);
        expect(meta(html, 'og:title')).toMatch(path.endsWith('sketch') ? /Pencil Sketch/ : /2 cartoon styles/);
        expect(html).toContain('<meta name="robots" content="noindex"/>');
        // The site's default card is gone, and the page is still the app (its scripts).
        expect(html).not.toContain('/thumbnails/pixar.png');
        expect(html).toMatch(/<script type="module"[^>]+src="\/assets\//);
        const image = await fetch(card, { headers: { 'user-agent': agent } });
        expect(image.headers.get('content-type')).toBe('image/jpeg');
        const info = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
        expect([info.format, info.width, info.height]).toEqual(['jpeg', SHARE_CARD.width, SHARE_CARD.height]);
      }
    }
    const robots = await (await fetch(`${runtime.url}/robots.txt`)).text();
    expect(robots).not.toMatch(/^Disallow: \/image\//m);
    expect(robots).toMatch(/^Allow: \/api\/share-card\/$/m);
  });

  test('records carry their expiry: unpaid orders, sign-ups, image records, jobs, holds; a paid order loses it', async () => {
    expectExpiry(await get('images', { image_hash: astronaut }), RETENTION_DAYS.imageRecords);
    const jobs = await db.send(new ScanCommand({ TableName: runtime.env.JOBS_TABLE }));
    expect(jobs.Items?.length).toBeGreaterThan(0);
    for (const job of jobs.Items ?? []) expectExpiry(job, RETENTION_DAYS.jobs);
    const holds = await db.send(new ScanCommand({ TableName: runtime.env.HOLDS_TABLE }));
    for (const hold of holds.Items ?? []) expectExpiry(hold, RETENTION_DAYS.uploads);

    const unpaid = await checkout(owner, 'later@example.com', [coffee], ['anime']);
    expectExpiry(await get('orders', { order_id: unpaid.order_id }), RETENTION_DAYS.unpaidOrders);
    const order = await get('orders', { order_id: paid.order_id });
    expect(order?.paid_at).toBeDefined();
    expect(order?.expires_at).toBeUndefined();

    expect((await owner.post('/api/preview-signup', { email: 'Launch@Example.com', image_hash: coffee })).status).toBe(
      201,
    );
    expectExpiry(await get('signups', { signup_id: `launch@example.com#${coffee}` }), RETENTION_DAYS.signups);
  });

  /** Registers the astronaut for a visitor who does not own it: always an upload URL of their own. */
  async function registerAstronaut(visitor: ReturnType<typeof api>): Promise<string> {
    const reg = await visitor.post('/api/upload-image', {
      image_hash: astronaut,
      file_type: 'image/png',
      file_size: photo('astronaut.png').length,
    });
    expect(reg.body.status).toBe('upload');
    return reg.body.url.url;
  }
  /** PUTs bytes to an upload URL with the headers it signs (the local S3 checks none of them). */
  async function putBytes(url: string, bytes: Buffer) {
    const put = await fetch(url, {
      method: 'PUT',
      headers: uploadHeaders(astronaut, 'image/png'),
      body: new Uint8Array(bytes),
    });
    expect(put.ok).toBe(true);
  }

  /** The media key a presigned URL names (path-style: /<bucket>/<key>). */
  const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname).split('/').slice(2).join('/');
});

/** A meta tag's content by property or name. */
function meta(html: string, key: string): string | undefined {
  const re = new RegExp(`<meta (?:property|name)="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)"`);
  return re.exec(html)?.[1]?.replace(/&amp;/g, '&');
}
