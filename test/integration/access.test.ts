import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { SHARE_CARD } from '../../domain/ownership';
import { RETENTION_DAYS } from '../../domain/privacy';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { checkout, emailsTo, moderate, pay, waitForGeneration } from '../support/orders';
import { api, mediaClient, photo, sha256, startTestRuntime, uploadHeaders, uploadPhoto } from '../support/runtime';

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
  /** The owner's paid order of the astronaut (comic, sketch) and its moderation job. */
  let paid: { order_id: string; share: string };
  let ownerJob: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    owner = api(runtime.url);
    db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: S3RVER_CREDENTIALS }),
    );
    s3 = mediaClient(runtime);
    astronaut = await uploadPhoto(owner, photo('astronaut.png'));
    coffee = await uploadPhoto(owner, photo('coffee.png'));
    const job = await owner.post('/api/process-moderation', { image_hashes: [astronaut, coffee] });
    ownerJob = job.body.job_id;
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
  const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

  test('the owner secret is an HttpOnly, SameSite=Strict cookie on /api, issued once', async () => {
    const visitor = api(runtime.url);
    const first = await visitor.post('/api/upload-image', {
      image_hash: sha256(photo('rocket.jpg')),
      file_type: 'image/jpeg',
      file_size: photo('rocket.jpg').length,
    });
    const [cookie] = first.headers.getSetCookie();
    expect(cookie).toMatch(/^tz_owner=[A-Za-z0-9_-]{43}; Path=\/api; Max-Age=\d+; HttpOnly; Secure; SameSite=Strict$/);
    // The secret is never in a URL or a body.
    expect(JSON.stringify(first.body)).not.toContain(cookie.split(';')[0].split('=')[1]);
    const again = await visitor.post('/api/upload-image', {
      image_hash: sha256(photo('rocket.jpg')),
      file_type: 'image/jpeg',
      file_size: photo('rocket.jpg').length,
    });
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  test('a stranger with only the hash gets nothing: no verdict, previews, jobs, orders, sign-ups or images', async () => {
    for (const stranger of [api(runtime.url), await withOwnSecret()]) {
      expect(await stranger.get(`/api/get-moderation/${astronaut}`)).toMatchObject(notFound(astronaut));
      expect(await stranger.get(`/api/get-thumbnails/${astronaut}`)).toMatchObject(notFound(astronaut));
      expect(await stranger.post('/api/process-moderation', { image_hashes: [astronaut] })).toMatchObject(
        notFound(astronaut),
      );
      expect(await stranger.post('/api/process-thumbnail', { image_hash: astronaut })).toMatchObject(
        notFound(astronaut),
      );
      expect(
        await stranger.post('/api/checkout', {
          email: 'thief@example.com',
          hashes: [astronaut],
          styles: ['watercolor'],
        }),
      ).toMatchObject(notFound(astronaut));
      expect(
        await stranger.post('/api/preview-signup', { email: 'thief@example.com', image_hash: astronaut }),
      ).toMatchObject(notFound(astronaut));
      expect((await stranger.get(`/api/jobs/${ownerJob}`)).status).toBe(404);
      // The paid images are not reached by the photo's hash, in any form.
      expect((await stranger.get(`/api/image/${astronaut}`)).status).toBe(404);
      expect((await stranger.get(`/api/image/${astronaut}/comic`)).status).toBe(404);
    }
    // The owner reaches all of it.
    expect((await owner.get(`/api/get-moderation/${astronaut}`)).body.moderation).toBe('allowed');
    expect((await owner.get(`/api/get-thumbnails/${astronaut}`)).status).toBe(200);
    expect((await owner.get(`/api/jobs/${ownerJob}`)).body).toBe('SUCCESS');
  });

  test('registering a known hash is not owning it: the stranger must upload the bytes, and other bytes do not count', async () => {
    const stranger = api(runtime.url);
    // Never 'exists' for someone who has not shown the bytes, though a copy is stored.
    const url = await registerAstronaut(stranger);
    expect(await stranger.post('/api/process-moderation', { image_hashes: [astronaut] })).toMatchObject(
      notFound(astronaut),
    );
    // Other bytes under the hash (the local S3 checks no checksums; the server hashes them) are refused and removed.
    await putBytes(url, photo('coffee.png'));
    expect(await stranger.post('/api/process-moderation', { image_hashes: [astronaut] })).toEqual({
      status: 400,
      body: { detail: `Photo ${astronaut.slice(0, 12)}: Uploaded bytes do not match the image hash.` },
    });
    expect(await keys(keyOf(url))).toEqual([]);
    // Still not an owner.
    expect(await stranger.get(`/api/get-moderation/${astronaut}`)).toMatchObject(notFound(astronaut));
    // The owner's photo and verdict are untouched.
    expect((await owner.get(`/api/get-moderation/${astronaut}`)).body.moderation).toBe('allowed');
  });

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

  test('the status link and the share link work for anyone who holds them', async () => {
    const anyone = api(runtime.url);
    const status = await anyone.get(`/api/generation/${paid.order_id}`);
    expect(status.status).toBe(200);
    expect(status.body.images).toHaveLength(2);
    const gallery = await anyone.get(`/api/image/${paid.share}`);
    expect(gallery.status).toBe(200);
    expect(gallery.body).toEqual([
      expect.objectContaining({ styleId: 'comic', shareId: paid.share, url: expect.any(String) }),
      expect.objectContaining({ styleId: 'sketch', shareId: paid.share }),
    ]);
    const one = await anyone.get(`/api/image/${paid.share}/sketch`);
    expect(one.body).toMatchObject({ styleId: 'sketch', styleName: 'Pencil Sketch', shareId: paid.share });
    expect((await anyone.get(`/api/image/${paid.share}/watercolor`)).status).toBe(404);
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

  test('POST routes take JSON only: a cross-site simple request starts nothing', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await fetch(`${runtime.url}/api/process-moderation`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ image_hashes: [astronaut] }),
      });
      expect([res.status, await res.json()]).toEqual([415, { detail: 'Send the request body as application/json.' }]);
    }
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

  test('deleting an order removes its own images, share links and e-mail, never what others still hold', async () => {
    // A second order of the same owner on the astronaut, and a sign-up with the buyer's address.
    const other = await checkout(owner, 'buyer@example.com', [astronaut, coffee], ['watercolor']);
    await pay(runtime, other.session_id);
    expect((await waitForGeneration(owner, other.order_id)).status).toBe('completed');
    expect(
      (await owner.post('/api/preview-signup', { email: 'buyer@example.com', image_hash: astronaut })).status,
    ).toBe(201);
    const shareCards = await keys(`shares/${paid.share}/`);
    expect(shareCards.sort()).toEqual([`shares/${paid.share}/comic.jpg`, `shares/${paid.share}/sketch.jpg`]);

    const res = await owner.post(`/api/generation/${paid.order_id}/delete`, {});
    expect(res.status).toBe(200);
    // The astronaut is still held (the owner's other order, the second visitor): kept. Nothing of sign-ups goes.
    expect(res.body.deleted).toEqual({
      photos_deleted: 0,
      photos_kept: 1,
      files_deleted: 4, // two images, two share cards
      email_removed: true,
      signups_deleted: 0,
    });
    expect(await keys(`outputs/${paid.order_id}/`)).toEqual([]);
    expect(await keys(`shares/${paid.share}/`)).toEqual([]);
    expect(await keys(`uploads/${astronaut}`)).toEqual([`uploads/${astronaut}`]);
    expect((await owner.get(`/api/get-moderation/${astronaut}`)).body.moderation).toBe('allowed');
    expect((await get('signups', { signup_id: `buyer@example.com#${astronaut}` }))?.email).toBe('buyer@example.com');
    // The share link and its picture are gone; the other order's images are not.
    expect((await api(runtime.url).get(`/api/image/${paid.share}`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/image/${paid.share}/sketch`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/api/share-card/${paid.share}/sketch`)).status).toBe(404);
    expect((await owner.get(`/api/generation/${other.order_id}`)).body.images).toHaveLength(2);

    // The e-mail address is gone from the order and its generation; accounting figures stay.
    const order = await get('orders', { order_id: paid.order_id });
    expect(order?.email).toBeUndefined();
    expect(order).toMatchObject({
      total: expect.any(Number),
      paid_at: expect.any(String),
      erased_at: expect.any(String),
    });
    const generation = await get('generations', { generation_id: paid.order_id });
    expect(generation?.email).toBeUndefined();
    const status = await owner.get(`/api/generation/${paid.order_id}`);
    expect([status.status, status.body]).toEqual([
      410,
      { detail: 'The photos and images of this order were deleted at your request.', erased_at: generation?.erased_at },
    ]);

    // Again: at once, nothing more deleted.
    const again = await owner.post(`/api/generation/${paid.order_id}/delete`, {});
    expect([again.status, again.body.deleted.files_deleted, again.body.deleted.photos_deleted]).toEqual([200, 0, 0]);
    expect((await owner.post('/api/generation/not-an-order/delete', {})).status).toBe(404);
  });

  test('the last holder to let go deletes the photo itself', async () => {
    const visitor = api(runtime.url);
    const chelsea = await uploadPhoto(visitor, photo('chelsea.png'));
    await moderate(visitor, [chelsea]);
    const order = await checkout(visitor, 'cat@example.com', [chelsea], ['sketch']);
    await pay(runtime, order.session_id);
    await waitForGeneration(visitor, order.order_id);
    const res = await visitor.post(`/api/generation/${order.order_id}/delete`, {});
    expect(res.body.deleted).toMatchObject({ photos_deleted: 1, photos_kept: 0 });
    expect(await keys(`uploads/${chelsea}`)).toEqual([]);
    expect(await keys(`previews/${chelsea}/`)).toEqual([]);
    expect(await get('images', { image_hash: chelsea })).toBeUndefined();
    expect(await visitor.get(`/api/get-moderation/${chelsea}`)).toMatchObject(notFound(chelsea));
  });

  test('erasing everything tied to an address takes the link e-mailed to it, once', async () => {
    const visitor = api(runtime.url);
    // A photo nobody else in this file uploads, so the erasure deletes it too.
    const camera = await uploadPhoto(visitor, photo('grace_hopper.jpg'), 'image/jpeg');
    await moderate(visitor, [camera]);
    const order = await checkout(visitor, 'Whole.Me@example.com', [camera], ['sketch']);
    await pay(runtime, order.session_id);
    await waitForGeneration(visitor, order.order_id);
    expect(
      (await visitor.post('/api/preview-signup', { email: 'whole.me@example.com', image_hash: camera })).status,
    ).toBe(201);

    // Anyone may ask; the answer never says whether the address holds anything, and asking twice sends one link.
    const stranger = api(runtime.url);
    for (const email of ['whole.me@example.com', 'WHOLE.ME@example.com', 'nobody@example.com']) {
      expect(await stranger.post('/api/erasure-request', { email })).toEqual({ status: 202, body: { status: 'sent' } });
    }
    const mails = await emailsTo(runtime, 'whole.me@example.com');
    expect(mails.map((m) => m.subject)).toEqual(['ToonZap: confirm deleting your data']);
    const token = /\/forget\/([A-Za-z0-9_-]{22})/.exec(mails[0].text)?.[1];
    expect(token).toBeDefined();
    // Nothing happens without the link: a guessed token is not found, the order and sign-up stay.
    expect((await stranger.post(`/api/erasure/${'A'.repeat(22)}`, {})).status).toBe(404);
    expect((await visitor.get(`/api/generation/${order.order_id}`)).status).toBe(200);

    const res = await stranger.post(`/api/erasure/${token}`, {});
    expect(res).toEqual({
      status: 200,
      body: {
        deleted: {
          orders_erased: 1,
          orders_in_progress: 0,
          photos_deleted: 1,
          files_deleted: expect.any(Number),
          signups_deleted: 1,
        },
      },
    });
    expect((await visitor.get(`/api/generation/${order.order_id}`)).status).toBe(410);
    expect(await get('signups', { signup_id: `whole.me@example.com#${camera}` })).toBeUndefined();
    expect(await keys(`uploads/${camera}`)).toEqual([]);
    // Once only.
    expect((await stranger.post(`/api/erasure/${token}`, {})).status).toBe(404);
  });

  test('an order still waiting for payment cannot be deleted (409)', async () => {
    const open = await checkout(owner, 'waiting@example.com', [coffee], ['anime']);
    const res = await owner.post(`/api/generation/${open.order_id}/delete`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/waiting for payment/);
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

  /** A visitor with an owner secret of their own (they uploaded something else). */
  async function withOwnSecret() {
    const visitor = api(runtime.url);
    await uploadPhoto(visitor, photo('camera.png'));
    expect(visitor.cookies.get('tz_owner')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return visitor;
  }
});

/** A meta tag's content by property or name. */
function meta(html: string, key: string): string | undefined {
  const re = new RegExp(`<meta (?:property|name)="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)"`);
  return re.exec(html)?.[1]?.replace(/&amp;/g, '&');
}
