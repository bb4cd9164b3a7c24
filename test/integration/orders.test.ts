import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import Stripe from 'stripe';
import { refundFor } from '../../domain/orders';
import { orderSummary } from '../../domain/pricing';
import { mediaKey } from '../../domain/wiring';
import {
  checkout,
  deliverWebhook,
  emailsTo,
  moderate,
  orderExecutions,
  pay,
  startEngineFaults,
  stripeClient,
  tableClient,
  waitForGeneration,
} from '../support/orders';
import { api, mediaClient, photo, sha256, startTestRuntime, uploadPhoto } from '../support/runtime';

const ASTRONAUT = photo('astronaut.png');

/**
 * After payment: checkout → Stripe (local stand-in) → signed webhook → order state machine → e-mail → result APIs.
 * Engine styles only: a generative one would load the Bedrock stand-in's own engine and models for one image (its
 * orders are test/runtime/generative.test.ts, its rules test/lambdas/tasks/generate-item.test.ts).
 */
describe('orders', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let hash: string;
  let engineFaults: Awaited<ReturnType<typeof startEngineFaults>>;

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    client = api(runtime.url);
    // Engine traffic goes through a fault-injecting proxy (set before any handler built its SageMaker client).
    engineFaults = await startEngineFaults(runtime.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME);
    process.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME = runtime.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME = engineFaults.url;
    hash = await uploadPhoto(client, ASTRONAUT);
    await moderate(client, [hash]);
  });
  afterAll(async () => {
    await runtime?.idle();
    await runtime?.close();
    await engineFaults?.close();
  });

  /** Uploads and moderates a photo, then replaces the stored bytes through the still-valid upload URL. */
  async function allowedThenSwapped(original: Buffer, replacement: Buffer): Promise<string> {
    const h = sha256(original);
    const reg = await client.post('/api/upload-image', {
      image_hash: h,
      file_type: 'image/png',
      file_size: original.length,
    });
    expect(reg.body.status).toBe('upload');
    const put = async (bytes: Buffer) => {
      const res = await fetch(reg.body.url.url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: new Uint8Array(bytes),
      });
      await res.arrayBuffer();
      return res;
    };
    expect((await put(original)).status).toBe(200);
    await moderate(client, [h]);
    expect((await client.get(`/api/get-moderation/${h}`)).body.moderation).toBe('allowed');
    // The URL's upload was checked and moved to the stored copy; a PUT to it again changes nothing of the photo.
    expect((await put(replacement)).status).toBe(200);
    // So the bytes are changed past us, straight in storage (what the stored-copy check guards against).
    const s3 = mediaClient(runtime);
    await s3.send(
      new PutObjectCommand({ Bucket: runtime.env.MEDIA_BUCKET, Key: mediaKey.upload(h), Body: replacement }),
    );
    s3.destroy();
    return h;
  }

  test('a paid order is generated, e-mailed once and served; replays of its webhook change nothing', async () => {
    const email = 'buyer@example.com';
    const order = await checkout(client, email, [hash], ['comic', 'pixel-art']);
    expect(order.order_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.url).toContain(`/pay/${order.session_id}`);

    // The session carries the server's price and the order, whatever the client believed.
    const session = await stripeClient(runtime).checkout.sessions.retrieve(order.session_id);
    expect(session.amount_total).toBe(orderSummary(1, 2).total);
    expect(session.amount_total).toBe(98); // 2 × $0.70 = $1.40, less 30%
    expect(session.metadata).toEqual({ order_id: order.order_id });
    expect(session.client_reference_id).toBe(order.order_id);
    expect(session.success_url).toBe(`${runtime.url}/status/${order.order_id}`);
    expect(session.customer_email).toBe(email);

    expect((await client.get(`/api/generation/${order.order_id}`)).status).toBe(404); // nothing before payment

    const paid = await pay(runtime, order.session_id);
    expect(paid.delivery.status).toBe('delivered');
    // The same signed event again, five times at once while the pipeline runs: each is acknowledged, none starts anything.
    const payload = JSON.stringify(paid.event, null, 2);
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliverWebhook(runtime, payload)));
    for (const r of replays) expect(r).toEqual({ status: 200, body: { received: true, duplicate: true } });

    const generation = await waitForGeneration(client, order.order_id);
    await runtime.idle();
    expect(generation).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(generation.refund).toBeUndefined();
    expect(generation.images.map((i) => [i.imageHash, i.styleId, i.styleName])).toEqual([
      [hash, 'comic', 'Comic Book'],
      [hash, 'pixel-art', 'Pixel Art'],
    ]);
    for (const image of generation.images) {
      const res = await fetch(image.url);
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe('png');
      expect(Math.max(meta.width!, meta.height!)).toBe(2048); // the paid size: the 512-px photo is enlarged to it
    }

    const share = generation.images[0].shareId;
    // One execution, one e-mail, with links to the status page and the photo's gallery.
    expect(await orderExecutions(runtime, order.order_id)).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
    const mails = await emailsTo(runtime, email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/ready/);
    for (const body of [mails[0].html, mails[0].text]) {
      expect(body).toContain(`${runtime.url}/status/${order.order_id}`);
      // The gallery by its share link, never by the photo's hash.
      expect(body).toContain(`${runtime.url}/image/${share}`);
      expect(body).not.toContain(hash);
      // The receipt, from the order record: 1 photo × 2 styles at $0.70, 30 % off.
      expect(body).toContain('2 images (1 photo × 2 styles) at $0.70');
      expect(body).toContain('Comic Book, Pixel Art');
      expect(body).toMatch(/Discount(\s|<[^>]*>)+-\$0\.42/);
      expect(body).toMatch(/Paid(\s|<[^>]*>)+\$0\.98/);
    }
    // The status page's receipt: the same lines, from the order record, through the API.
    expect(generation.receipt).toEqual([
      { label: '2 images (1 photo × 2 styles) at $0.70', value: '$1.40', note: 'Comic Book, Pixel Art' },
      { label: 'Discount', value: '-$0.42' },
      { label: 'Paid', value: '$0.98', strong: true },
    ]);
    for (const line of generation.receipt!) expect(mails[0].text).toContain(line.label);

    // The single-image and gallery calls serve what was delivered, and only that.
    const one = await client.get(`/api/image/${share}/pixel-art`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      styleId: 'pixel-art',
      styleName: 'Pixel Art',
      imageHash: hash,
      description: expect.any(String),
      // The engine draws it (a generative style's image says so: test/lambdas/routes/get-image.test.ts).
      aiGenerated: false,
    });
    const oneRes = await fetch(one.body.url);
    expect(oneRes.status).toBe(200);
    expect((await sharp(Buffer.from(await oneRes.arrayBuffer())).metadata()).format).toBe('png');
    const gallery = await client.get(`/api/image/${share}`);
    expect(gallery.status).toBe(200);
    expect(gallery.body.map((i: { styleId: string }) => i.styleId)).toEqual(['comic', 'pixel-art']);
    expect(await client.get(`/api/image/${share}/sketch`)).toEqual({
      status: 404,
      body: { detail: 'Image or style not found.' },
    });
    expect(await client.get(`/api/image/${share}/no-such-style`)).toEqual({
      status: 404,
      body: { detail: 'Image or style not found.' },
    });
    expect(await client.get(`/api/image/${'0'.repeat(64)}`)).toEqual({
      status: 404,
      body: { detail: 'No images found for this hash.' },
    });
    expect((await client.get('/api/generation/not-an-id')).status).toBe(404);

    // Much later, Stripe retries the event once more: still nothing new.
    expect(await deliverWebhook(runtime, payload)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await runtime.idle();
    expect(await orderExecutions(runtime, order.order_id)).toHaveLength(1);
    expect(await emailsTo(runtime, email)).toHaveLength(1);
  });

  test('webhooks with a forged, stale or missing signature are refused', async () => {
    const order = await checkout(client, 'forger@example.com', [hash], ['sketch']);
    const session = await stripeClient(runtime).checkout.sessions.retrieve(order.session_id);
    const event = {
      id: 'evt_forged_0001',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged' } },
    };
    const payload = JSON.stringify(event);

    const forged = await deliverWebhook(runtime, payload, { secret: 'whsec_not_the_real_secret' });
    expect(forged.status).toBe(400);
    expect(String(forged.body.detail)).toMatch(/signature/i);
    const stale = await deliverWebhook(runtime, payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(400);
    expect(String(stale.body.detail)).toMatch(/tolerance|timestamp/i);
    // Genuinely signed, but dated in the future (1 h, 10 years): the SDK checks only age, we check the other side.
    for (const ahead of [3600, 10 * 365 * 24 * 3600]) {
      const future = await deliverWebhook(runtime, payload, { timestamp: Math.floor(Date.now() / 1000) + ahead });
      expect(future).toEqual({ status: 400, body: { detail: 'Webhook timestamp is in the future.' } });
    }
    // A genuine signature over different bytes.
    const genuine = Stripe.webhooks.generateTestHeaderString({ payload, secret: runtime.env.STRIPE_WEBHOOK_SECRET });
    const tampered = await deliverWebhook(runtime, payload.replace('"paid"', '"paid" '), { signature: genuine });
    expect(tampered.status).toBe(400);
    const unsigned = await fetch(`${runtime.url}/api/stripe-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toEqual({ detail: 'Missing Stripe-Signature header.' });

    expect((await client.get(`/api/generation/${order.order_id}`)).status).toBe(404);
    expect(await orderExecutions(runtime, order.order_id)).toHaveLength(0);

    // Event types the app does not use are acknowledged and ignored.
    const other = JSON.stringify({
      id: 'evt_other_0001',
      object: 'event',
      type: 'charge.succeeded',
      data: { object: {} },
    });
    expect(await deliverWebhook(runtime, other)).toEqual({
      status: 200,
      body: { received: true, ignored: 'charge.succeeded' },
    });
  });

  test('an item the engine keeps failing is retried, then refunded; a photo changed after moderation is refused and refunded', async () => {
    const email = 'partial@example.com';
    const swapped = await allowedThenSwapped(photo('chelsea.png'), photo('coffee.png'));
    const order = await checkout(client, email, [hash, swapped], ['watercolor', 'pop-art']);
    const failing = mediaKey.output(order.order_id, hash, 'pop-art');
    engineFaults.poison(failing);

    const paid = await pay(runtime, order.session_id);
    const generation = await waitForGeneration(client, order.order_id);
    await runtime.idle();

    const total = orderSummary(2, 2).total; // 4 × $0.70 = $2.80, less 30% = $1.96
    const refunded = refundFor(total, 4, 3);
    expect(refunded).toBe(147);
    expect(engineFaults.attempts(failing)).toBe(3); // first try + 2 retries
    expect(generation).toMatchObject({
      status: 'completed',
      progress: 100,
      error: '3 of 4 images could not be generated. $1.47 has been refunded to your card.',
      refund: { amount: refunded, currency: 'usd', items: 3 },
    });
    expect(generation.images.map((i) => [i.imageHash, i.styleId])).toEqual([[hash, 'watercolor']]);
    expect(generation.failed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ imageHash: hash, styleId: 'pop-art', error: 'This image could not be generated.' }),
        expect.objectContaining({
          imageHash: swapped,
          styleId: 'watercolor',
          error: 'This photo did not pass our safety check, so it was not processed.',
        }),
        expect.objectContaining({ imageHash: swapped, styleId: 'pop-art' }),
      ]),
    );

    // The money really went back, once, against this payment.
    const session = paid.event.data.object as Stripe.Checkout.Session;
    const refunds = await stripeClient(runtime).refunds.list({ payment_intent: String(session.payment_intent) });
    expect(refunds.data.map((r) => r.amount)).toEqual([refunded]);
    expect(refunds.data[0].metadata?.order_id).toBe(order.order_id);

    // What failed is not served; the e-mail tells the customer.
    expect((await client.get(`/api/image/${hash}/pop-art`)).status).toBe(404);
    expect((await client.get(`/api/image/${swapped}`)).status).toBe(404);
    const mails = await emailsTo(runtime, email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('$1.47 has been refunded');
    // The receipt says what was refunded and why, on the status page as in the e-mail.
    expect(generation.receipt).toEqual(
      expect.arrayContaining([
        { label: 'Paid', value: '$1.96', strong: true },
        {
          label: 'Refunded: 3 images not delivered',
          value: '-$1.47',
          note: expect.stringContaining('This image could not be generated.'),
        },
        { label: 'Paid after the refund', value: '$0.49', strong: true },
      ]),
    );
    expect(generation.receipt!.find((l) => l.label.startsWith('Refunded'))?.note).toContain(
      'This photo did not pass our safety check',
    );
  });

  test('an expired session expires its order; a delayed payment is fulfilled when it succeeds', async () => {
    const ddb = tableClient(runtime);
    const orderStatus = async (id: string) =>
      (await ddb.send(new GetCommand({ TableName: runtime.env.ORDERS_TABLE, Key: { order_id: id } }))).Item?.status;

    const abandoned = await checkout(client, 'abandoned@example.com', [hash], ['pixel-art']);
    expect(await orderStatus(abandoned.order_id)).toBe('created');
    await stripeClient(runtime).checkout.sessions.expire(abandoned.session_id);
    const until = Date.now() + 10_000;
    while ((await orderStatus(abandoned.order_id)) !== 'expired' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(await orderStatus(abandoned.order_id)).toBe('expired');
    expect((await client.get(`/api/generation/${abandoned.order_id}`)).status).toBe(404);

    // A bank transfer, say: the session completes unpaid, and the money arrives later.
    const email = 'delayed@example.com';
    const order = await checkout(client, email, [hash], ['pixel-art']);
    const session = await stripeClient(runtime).checkout.sessions.retrieve(order.session_id);
    const event = (id: string, type: string, paymentStatus: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type,
        created: Math.floor(Date.now() / 1000),
        data: {
          object: { ...session, status: 'complete', payment_status: paymentStatus, payment_intent: 'pi_delayed_0001' },
        },
      });
    expect(await deliverWebhook(runtime, event('evt_delayed_1', 'checkout.session.completed', 'unpaid'))).toEqual({
      status: 200,
      body: { received: true, outcome: 'awaiting payment' },
    });
    expect(await orderStatus(order.order_id)).toBe('created');
    expect(
      await deliverWebhook(runtime, event('evt_delayed_2', 'checkout.session.async_payment_succeeded', 'paid')),
    ).toEqual({ status: 200, body: { received: true, outcome: 'order paid, generation started' } });
    expect(await orderStatus(order.order_id)).toBe('paid');
    const generation = await waitForGeneration(client, order.order_id);
    await runtime.idle();
    expect(generation).toMatchObject({
      status: 'completed',
      images: [expect.objectContaining({ imageHash: hash, styleId: 'pixel-art' })],
    });
    expect(await emailsTo(runtime, email)).toHaveLength(1);
    ddb.destroy();
  });
});
