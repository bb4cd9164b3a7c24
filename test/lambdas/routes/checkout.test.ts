import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { MIN_SHORT_SIDE } from '../../../domain/image-format';
import { CHECKOUT_SESSION_SECONDS } from '../../../domain/orders';
import { orderSummary } from '../../../domain/pricing';
import { RETENTION_DAYS } from '../../../domain/privacy';
import { ENV } from '../../../domain/wiring';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { httpEvent } from '../../support/http-event';
import {
  answer,
  type Browser,
  browser,
  failure,
  mockDdb,
  ownerHold,
  REFUSED_ADDRESSES,
  sdkEnv,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * POST /api/checkout {email, hashes, styles}: the owner's allowed photos only; the price computed here; the order
 * stored (and holding its photos) before the Stripe Checkout Session exists. Stripe is the real SDK with its one call
 * replaced (the session Stripe would make from these parameters).
 */
const SITE = 'https://toonzap.test';
sdkEnv();
Object.assign(process.env, tableEnv('images', 'holds', 'orders'), {
  [ENV.paymentMode]: 'stripe',
  [ENV.siteUrl]: SITE,
  [ENV.siteOrigins]: 'https://www.toonzap.test,https://d111111abcdef8.cloudfront.net',
  [ENV.mediaBucket]: 'media',
  STRIPE_SECRET_KEY: 'sk_test_checkout',
  STRIPE_WEBHOOK_SECRET: 'whsec_test_checkout',
});
delete process.env[ENV.brandName];
let handler: typeof import('../../../lambdas/routes/checkout')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/checkout'));
});

/** Every Stripe client's Checkout Sessions resource shares this prototype: the SDK's own create, replaced. */
const sessionsResource = Object.getPrototypeOf(
  new Stripe('sk_test_x').checkout.sessions,
) as Stripe.Checkout.SessionResource;
const createSession = jest.spyOn(sessionsResource, 'create');
/** What Stripe answers: a session for the amount it was given. */
const stripeSession = (params?: Stripe.Checkout.SessionCreateParams) =>
  ({
    id: 'cs_test_1',
    object: 'checkout.session',
    url: 'https://checkout.stripe.com/c/pay/cs_test_1',
    amount_total: params?.line_items?.[0]?.price_data?.unit_amount ?? null,
  }) as Stripe.Response<Stripe.Checkout.Session>;

const ddb = mockDdb();
const A = createHash('sha256').update('astronaut').digest('hex');
const B = createHash('sha256').update('coffee').digest('hex');
const UNKNOWN = createHash('sha256').update('never uploaded').digest('hex');
const me = browser('owner');
const stranger = browser('stranger');
const NOW = new Date('2026-11-23T14:30:00Z');
const nowSeconds = NOW.getTime() / 1000;

const image = (hash: string, over: Partial<ImageRecord> = {}): ImageRecord => ({
  image_hash: hash,
  file_type: 'image/png',
  registered_at: '2026-11-23T09:00:00.000Z',
  verified: true,
  width: 1024,
  height: 768,
  moderation: 'allowed',
  ...over,
});
/** Checkout from a browser (null: one without an owner secret). */
const buy = (body: unknown, from: Browser | null = me, headers: Record<string, string> = {}) =>
  handler(httpEvent('POST /api/checkout', { body, cookies: from?.cookies, headers }));
const ok = { email: 'Buyer@Example.com', hashes: [A, B], styles: ['anime', 'comic'] };
const orderPuts = () => ddb.commandCalls(PutCommand, { TableName: 'orders' }).map((c) => c.args[0].input);
const orderUpdates = () => ddb.commandCalls(UpdateCommand, { TableName: 'orders' }).map((c) => c.args[0].input);
const notFound = (hash: string) => ({ status: 404, body: { detail: `Image ${hash} not found. Upload it first.` } });

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  process.env[ENV.paymentMode] = 'stripe';
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  createSession.mockReset().mockImplementation(async (params) => stripeSession(params));
  for (const hash of [A, B]) {
    storeItem(ddb, 'holds', ownerHold(hash, me, 'owner'));
    storeItem(ddb, 'images', image(hash));
  }
});
afterEach(() => jest.useRealTimers());

describe('an order of allowed photos', () => {
  test('is stored at the server-side price, holds its photos, then gets its Checkout Session', async () => {
    const res = answer('checkout', await buy(ok, me, { origin: 'https://www.toonzap.test' }));
    const orderId = res.body.order_id;
    expect(res).toEqual({
      status: 200,
      body: { session_id: 'cs_test_1', order_id: orderId, url: 'https://checkout.stripe.com/c/pay/cs_test_1' },
    });
    const summary = orderSummary(2, 2);
    expect(orderPuts()).toEqual([
      {
        TableName: 'orders',
        Item: {
          order_id: orderId,
          status: 'created',
          email: 'Buyer@Example.com',
          email_key: 'buyer@example.com',
          owner: me.owner,
          hashes: [A, B],
          styles: ['anime', 'comic'],
          generations: 4,
          price_per_generation: summary.pricePerGeneration,
          original_price: summary.originalPrice,
          discount: summary.discount,
          total: summary.total,
          currency: 'usd',
          created_at: NOW.toISOString(),
          session_expires_at: nowSeconds + CHECKOUT_SESSION_SECONDS,
          expires_at: nowSeconds + RETENTION_DAYS.unpaidOrders * 24 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(order_id)',
      },
    ]);
    // The order holds its photos, for its owner: erasing other data never takes them from under it.
    expect(ddb.commandCalls(PutCommand, { TableName: 'holds' }).map((c) => c.args[0].input.Item)).toEqual(
      [A, B].map((hash) =>
        expect.objectContaining({ hold_id: `${hash}#order#${orderId}`, holder: `order#${orderId}`, owner: me.owner }),
      ),
    );
    expect(createSession).toHaveBeenCalledTimes(1);
    const [params, options] = createSession.mock.calls[0];
    expect(params).toEqual({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: summary.total,
            product_data: {
              name: 'ToonZap: 4 cartoon images',
              description: '2 photos × 2 styles (Anime, Comic Book), 30% off',
            },
          },
        },
      ],
      customer_email: 'Buyer@Example.com',
      client_reference_id: orderId,
      metadata: { order_id: orderId },
      payment_intent_data: { metadata: { order_id: orderId } },
      // Back to the site's own origin the visitor came from.
      success_url: `https://www.toonzap.test/status/${orderId}`,
      cancel_url: 'https://www.toonzap.test/?step=order',
      expires_at: nowSeconds + CHECKOUT_SESSION_SECONDS,
    });
    expect(options).toEqual({ idempotencyKey: `checkout-${orderId}` });
    // The session the webhook will recognise as the order's own.
    expect(orderUpdates()).toEqual([
      expect.objectContaining({
        Key: { order_id: orderId },
        UpdateExpression: 'SET #session_id = :v0',
        ConditionExpression: 'attribute_exists(order_id)',
        ExpressionAttributeValues: { ':v0': 'cs_test_1' },
      }),
    ]);
  });

  test("an Origin that is not one of the site's own is not where the visitor is sent back to", async () => {
    for (const origin of ['https://evil.example', 'https://toonzap.test.evil.example', undefined]) {
      createSession.mockClear();
      await buy(ok, me, origin ? { origin } : {});
      const [params] = createSession.mock.calls[0];
      expect([params?.success_url?.split('/status/')[0], params?.cancel_url]).toEqual([SITE, `${SITE}/?step=order`]);
    }
  });

  test('the same photo or style twice is bought once: the price follows what is made', async () => {
    await buy({ email: 'a@example.com', hashes: [A, A], styles: ['anime', 'anime', 'comic'] });
    expect(orderPuts()[0].Item).toMatchObject({
      hashes: [A],
      styles: ['anime', 'comic'],
      total: orderSummary(1, 2).total,
    });
    expect(createSession.mock.calls[0][0]?.line_items?.[0]?.price_data?.product_data?.name).toBe(
      'ToonZap: 2 cartoon images',
    );
  });
});

describe('the payment provider', () => {
  test('unreachable: 502, the order waits unpaid without a session', async () => {
    createSession.mockRejectedValue(new Stripe.errors.StripeConnectionError({ message: 'connect ECONNREFUSED' }));
    expect(failure(await buy(ok))).toEqual({
      status: 502,
      body: { detail: 'The payment provider is not reachable. Please try again.' },
    });
    expect(orderPuts()).toHaveLength(1);
    expect(orderUpdates()).toEqual([]);
  });

  test("a session for another amount than the order's: 502, and the order never points at it", async () => {
    createSession.mockImplementation(async () => ({ ...stripeSession(), amount_total: 1 }));
    expect(failure(await buy(ok))).toEqual({
      status: 502,
      body: { detail: 'The payment provider returned an unexpected amount. Please try again.' },
    });
    expect(orderUpdates()).toEqual([]);
  });
});

describe('what it cannot sell', () => {
  test('before launch: 409, nothing read or stored', async () => {
    process.env[ENV.paymentMode] = 'prelaunch';
    for (const body of [ok, '{']) {
      expect(failure(await buy(body))).toEqual({ status: 409, body: { detail: 'Payments are not live yet.' } });
    }
    expect(ddb.calls()).toHaveLength(0);
    expect(createSession).not.toHaveBeenCalled();
  });

  test('a photo too small or too long for a cartoon: 400 with its size, before its verdict', async () => {
    storeItem(ddb, 'images', image(A, { width: 120, height: 90, moderation: 'invalid' }));
    expect(failure(await buy(ok))).toEqual({
      status: 400,
      body: {
        detail: `Photo ${A.slice(0, 12)} is too small (120×90 px): photos need at least ${MIN_SHORT_SIDE} px on their short side.`,
      },
    });
    storeItem(ddb, 'images', image(B, { width: 256, height: 700 }));
    expect(failure(await buy(ok)).body).toEqual({
      detail: `Photo ${A.slice(0, 12)} is too small (120×90 px): photos need at least ${MIN_SHORT_SIDE} px on their short side. 1 more photo cannot be used either.`,
    });
    expect(orderPuts()).toEqual([]);
  });

  test('photos that have not passed moderation: 400 naming them', async () => {
    storeItem(ddb, 'images', image(B, { moderation: undefined }));
    expect(failure(await buy(ok))).toEqual({
      status: 400,
      body: { detail: `An image has not passed moderation: ${B.slice(0, 12)}.` },
    });
    storeItem(ddb, 'images', image(A, { moderation: 'rejected' }));
    expect(failure(await buy(ok)).body).toEqual({
      detail: `2 images have not passed moderation: ${A.slice(0, 12)}, ${B.slice(0, 12)}.`,
    });
    expect(orderPuts()).toEqual([]);
    expect(createSession).not.toHaveBeenCalled();
  });

  test('anyone but the owner, with the hashes alone, gets the 404 of a photo never uploaded; nothing is stored', async () => {
    expect(failure(await buy({ ...ok, hashes: [A, UNKNOWN] }))).toEqual(notFound(UNKNOWN));
    for (const from of [null, stranger]) {
      expect(failure(await buy({ ...ok, hashes: [A] }, from))).toEqual(notFound(A));
    }
    storeItem(ddb, 'holds', ownerHold(A, stranger, 'pending'));
    expect(failure(await buy({ ...ok, hashes: [A] }, stranger))).toEqual(notFound(A));
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(createSession).not.toHaveBeenCalled();
  });

  test("a bad body: 400 with the spec's words where it has them; a body not sent as JSON: 415", async () => {
    const many = Array.from({ length: 51 }, (_, i) => createHash('sha256').update(String(i)).digest('hex'));
    const invalid = 'Please enter a valid email address.';
    const stylesRule = 'styles must be a non-empty list of style ids.';
    for (const [body, detail] of [
      [{ ...ok, styles: ['anime', 'claymation'] }, 'Unknown style: "claymation".'],
      [{ ...ok, styles: [] }, stylesRule],
      [{ ...ok, styles: 'anime' }, stylesRule],
      [{ ...ok, email: 'not-an-email' }, invalid],
      [{ ...ok, email: 'a b@example.com' }, invalid],
      ...REFUSED_ADDRESSES.map((email) => [{ ...ok, email }, invalid] as const),
      [{ ...ok, email: '' }, 'Email is required.'],
      [{ ...ok, hashes: [] }, 'hashes must be a non-empty list of image hashes.'],
      [{ ...ok, hashes: ['abc'] }, 'hashes must be a SHA-256 hash (64 lowercase hex characters).'],
      [{ ...ok, hashes: many }, 'At most 50 images per request.'],
      ['[1, 2]', 'Request body must be a JSON object.'],
      ['{"email":', 'Request body is not valid JSON.'],
    ] as const) {
      expect(failure(await buy(body))).toEqual({ status: 400, body: { detail } });
    }
    const plain = httpEvent('POST /api/checkout', {
      body: ok,
      cookies: me.cookies,
      headers: { 'content-type': 'text/plain' },
    });
    expect(failure(await handler(plain))).toEqual({
      status: 415,
      body: { detail: 'Send the request body as application/json.' },
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
