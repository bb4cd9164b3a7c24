/**
 * The local Stripe stand-in, exercised through the real `stripe` SDK exactly as the app uses it,
 * with a webhook receiver that verifies signatures via `stripe.webhooks.constructEvent`.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Stripe from 'stripe';
import { type LocalStripe, type LocalStripeOptions, startLocalStripe } from '../../local/stripe/server';
import {
  clientConfig,
  clientFor,
  expectStripeError,
  formValues,
  sessionParams,
  startReceiver,
  WEBHOOK_SECRET,
  waitFor,
} from '../support/local-stripe';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let local: LocalStripe;
let stripe: Stripe;
let dir: string;
let clockMs = Date.now();
const nowSec = () => Math.floor(clockMs / 1000);

const options = (): LocalStripeOptions => ({
  webhookUrl: receiver.url,
  webhookSecret: WEBHOOK_SECRET,
  dataFile: path.join(dir, 'stripe.json'),
  webhookRetryDelaysMs: [150, 300],
  expiryCheckIntervalMs: 50,
  now: () => clockMs,
  log: () => {},
});

const simulatePay = async (id: string) => {
  const res = await fetch(`${local.url}/__simulate/pay/${id}`, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-stripe-'));
  receiver = await startReceiver();
  local = await startLocalStripe(options());
  stripe = clientFor(local);
});

afterAll(async () => {
  await local?.close();
  await receiver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(receiver.rejected).toEqual([]);
});

describe('Checkout Sessions API', () => {
  test('creates a session with inline price data and retrieves it', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 998,
      currency: 'usd',
      customer_email: 'ada@example.com',
      client_reference_id: 'order_42',
      metadata: { orderId: 'order_42', userId: 'user_7' },
      payment_intent: null,
      success_url: 'http://localhost:3000/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/checkout/cancelled',
      expires_at: nowSec() + 24 * 3600,
    });
    expect(session.url).toBe(`${local.url}/pay/${session.id}`);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ id: session.id, status: 'open' });
  });

  test('what Stripe refuses and the app depends on: the expiry range, a wrong key; other parameters are accepted', async () => {
    // Checkout's 31 minutes (CHECKOUT_SESSION_SECONDS) is chosen for Stripe's lower end of 30.
    const tooSoon = await expectStripeError(
      stripe.checkout.sessions.create(sessionParams({ expires_at: nowSec() + 10 * 60 })),
    );
    expect(tooSoon).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooSoon).toMatchObject({ param: 'expires_at', message: expect.stringContaining('at least 30 minutes') });
    const tooLate = await expectStripeError(
      stripe.checkout.sessions.create(sessionParams({ expires_at: nowSec() + 25 * 3600 })),
    );
    expect(tooLate).toMatchObject({ param: 'expires_at' });
    const noItems = await expectStripeError(stripe.checkout.sessions.create(sessionParams({ line_items: undefined })));
    expect(noItems).toMatchObject({ statusCode: 400, param: 'line_items' });
    expect(await stripe.checkout.sessions.create(sessionParams({ locale: 'fr', submit_type: 'pay' }))).toMatchObject({
      status: 'open',
    });

    const missingSession = await expectStripeError(stripe.checkout.sessions.retrieve('cs_test_doesnotexist'));
    expect(missingSession).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    const badKey = new Stripe('sk_test_wrong_key_123456789', { ...clientConfig(local), maxNetworkRetries: 0 });
    const auth = await expectStripeError(badKey.checkout.sessions.retrieve('cs_test_x'));
    expect(auth).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  test('unknown routes answer with a Stripe-shaped 404', async () => {
    const viaSdk = await expectStripeError(stripe.customers.retrieve('cus_123'));
    expect(viaSdk).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  test('idempotency keys replay the first result like Stripe', async () => {
    const key = `idem-${Date.now()}`;
    const a = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: key });
    const b = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    const conflict = await expectStripeError(
      stripe.checkout.sessions.create(sessionParams({ client_reference_id: 'other' }), { idempotencyKey: key }),
    );
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    // A retried refund task repeats its request: one refund, not two.
    const paid = await stripe.checkout.sessions.create(sessionParams());
    const { body } = await simulatePay(paid.id);
    const refund = { payment_intent: body.payment_intent.id as string, amount: 100 };
    const first = await stripe.refunds.create(refund, { idempotencyKey: `refund-${paid.id}` });
    expect((await stripe.refunds.create(refund, { idempotencyKey: `refund-${paid.id}` })).id).toBe(first.id);
    expect((await stripe.refunds.list({ payment_intent: refund.payment_intent })).data).toHaveLength(1);
  });
});

describe('payment and webhooks', () => {
  test('the test hook pays and delivers a signed checkout.session.completed', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const { status, body } = await simulatePay(session.id);
    expect(status).toBe(200);
    expect(body.event).toMatchObject({ object: 'event', type: 'checkout.session.completed' });
    expect(body.event.id).toMatch(/^evt_/);
    expect(body.delivery).toMatchObject({ status: 'delivered' });

    const [got] = await waitFor(() => {
      const r = receiver.accepted('checkout.session.completed', session.id);
      return r.length ? r : false;
    }, 'checkout.session.completed');
    expect(got.event.id).toBe(body.event.id);
    expect(got.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(got.event.api_version).toBe(Stripe.API_VERSION);
    const paid = got.event.data.object as Stripe.Checkout.Session;
    expect(paid).toMatchObject({
      id: session.id,
      status: 'complete',
      payment_status: 'paid',
      metadata: { orderId: 'order_42', userId: 'user_7' },
      client_reference_id: 'order_42',
      amount_total: 998,
    });
    expect(paid.payment_intent).toMatch(/^pi_/);
    expect(paid.customer_details?.email).toBe('ada@example.com');

    const retrieved = await stripe.checkout.sessions.retrieve(session.id);
    expect(retrieved.status).toBe('complete');
    expect(retrieved.url).toBeNull();
    // The PaymentIntent carries payment_intent_data.metadata: the webhook finds a dispute's order by it.
    const pi = await stripe.paymentIntents.retrieve(paid.payment_intent as string);
    expect(pi).toMatchObject({
      id: paid.payment_intent,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 998,
      amount_received: 998,
      currency: 'usd',
    });
    expect(pi.metadata).toEqual({ orderId: 'order_42' });
    expect(pi.latest_charge).toMatch(/^ch_/);

    const twice = await simulatePay(session.id);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toContain('already been paid');
  });

  test('the hosted page shows a test-mode checkout and its form pays', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const page = await fetch(session.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/Test mode<\/strong> — simulated payment, no card is charged/);
    expect(html).toContain('Cartoon &lt;pack&gt; &amp; more');
    expect(html).not.toContain('Cartoon <pack>');
    expect(html).toContain('Ten cartoon styles');
    expect(html).toContain('ada@example.com');
    expect(html).toContain('value="4242 4242 4242 4242"');
    expect(html).toContain('<label for="card_number">');
    expect(html).toContain('>Pay $9.98</button>');
    expect(html).toContain('>Cancel</button>');

    // Cancel goes back to the app and leaves the session open.
    const cancel = await fetch(`${local.url}/pay/${session.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe('http://localhost:3000/checkout/cancelled');

    // A declining test card shows an error and does not complete the session.
    const declinedForm = formValues(html);
    declinedForm.set('card_number', '4000 0000 0000 0002');
    const declined = await fetch(`${local.url}/pay/${session.id}`, {
      method: 'POST',
      body: declinedForm,
      redirect: 'manual',
    });
    expect(declined.status).toBe(422);
    const declinedHtml = await declined.text();
    expect(declinedHtml).toContain('role="alert"');
    expect(declinedHtml).toContain('Your card was declined.');
    expect(declinedHtml).toContain('aria-invalid="true"');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    // Submitting the prefilled form as a browser would.
    const form = formValues(html);
    expect(form.get('card_number')).toBe('4242 4242 4242 4242');
    const paid = await fetch(`${local.url}/pay/${session.id}`, { method: 'POST', body: form, redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost:3000/checkout/success?session_id=${session.id}`);

    // The first delivery attempt happens before the redirect.
    const [got] = receiver.accepted('checkout.session.completed', session.id);
    expect(got).toBeDefined();
    expect(got.event.data.object).toMatchObject({
      payment_status: 'paid',
      metadata: { orderId: 'order_42', userId: 'user_7' },
    });

    const after = await (await fetch(session.url as string)).text();
    expect(after).toContain('Payment complete');
    expect(after).not.toContain('>Pay $');
    expect(after).not.toContain('<form');
  });

  test("Stripe's dispute test card pays, then the payment is disputed as fraudulent", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const form = formValues(await (await fetch(session.url as string)).text());
    form.set('card_number', '4000 0000 0000 0259');
    const paid = await fetch(`${local.url}/pay/${session.id}`, { method: 'POST', body: form, redirect: 'manual' });
    expect(paid.status).toBe(303);
    const [completed] = receiver.accepted('checkout.session.completed', session.id);
    const paymentIntent = (completed.event.data.object as Stripe.Checkout.Session).payment_intent as string;
    const [dispute] = await waitFor(() => {
      const r = receiver.received.filter((x) => x.event.type === 'charge.dispute.created');
      return r.length ? r : false;
    }, 'charge.dispute.created');
    const disputed = dispute.event.data.object as Stripe.Dispute;
    expect(disputed).toMatchObject({
      object: 'dispute',
      payment_intent: paymentIntent,
      reason: 'fraudulent',
      amount: 998,
    });
    expect(disputed.id).toMatch(/^dp_/);
    expect(receiver.received.indexOf(dispute)).toBeGreaterThan(receiver.received.indexOf(completed));
  });

  test('a failing webhook endpoint gets the event again', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    receiver.failFirstCompletedFor.add(session.id);
    const { body } = await simulatePay(session.id);
    expect(body.delivery.status).toBe('pending');
    expect(body.delivery.attempts).toEqual([500]);

    const [ok] = await waitFor(() => {
      const r = receiver.accepted('checkout.session.completed', session.id);
      return r.length ? r : false;
    }, 'the retried delivery');
    const all = receiver.received.filter(
      (r) => r.event.type === 'checkout.session.completed' && (r.event.data.object as { id: string }).id === session.id,
    );
    expect(all.map((r) => r.answered)).toEqual([500, 200]);
    expect(all[1].event.id).toBe(all[0].event.id);
    expect(ok.event.id).toBe(body.event.id);
  });

  test('refunds work until the charge is used up', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const { body } = await simulatePay(session.id);
    const piId = body.payment_intent.id as string;

    const partial = await stripe.refunds.create({
      payment_intent: piId,
      amount: 300,
      reason: 'requested_by_customer',
      metadata: { ticket: 't1' },
    });
    expect(partial).toMatchObject({
      object: 'refund',
      status: 'succeeded',
      amount: 300,
      currency: 'usd',
      payment_intent: piId,
      reason: 'requested_by_customer',
      metadata: { ticket: 't1' },
    });
    expect(partial.id).toMatch(/^re_/);

    const over = await expectStripeError(stripe.refunds.create({ payment_intent: piId, amount: 800 }));
    expect(over).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(over).toMatchObject({
      param: 'amount',
      message: 'Refund amount ($8.00) is greater than unrefunded amount on charge ($6.98)',
    });

    const rest = await stripe.refunds.create({ payment_intent: piId });
    expect(rest.amount).toBe(698);
    const again = await expectStripeError(stripe.refunds.create({ payment_intent: piId, amount: 1 }));
    expect(again).toMatchObject({ code: 'charge_already_refunded' });

    const list = await stripe.refunds.list({ payment_intent: piId });
    expect(list.data.map((r) => r.id)).toEqual([rest.id, partial.id]);

    const missingPi = await expectStripeError(stripe.refunds.create({ payment_intent: 'pi_nope' }));
    expect(missingPi).toMatchObject({ code: 'resource_missing', param: 'payment_intent' });
  });
});

describe('expiry', () => {
  test('expiring through the API emits checkout.session.expired', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', payment_status: 'unpaid', url: null });
    const [got] = await waitFor(() => {
      const r = receiver.accepted('checkout.session.expired', session.id);
      return r.length ? r : false;
    }, 'checkout.session.expired');
    expect(got.event.data.object).toMatchObject({ id: session.id, status: 'expired' });
    const again = await expectStripeError(stripe.checkout.sessions.expire(session.id));
    expect(again.message).toContain('status of "expired"');
  });

  test('sessions past expires_at expire on their own and cannot be paid', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams({ expires_at: nowSec() + 31 * 60 }));
    expect(session.expires_at).toBe(nowSec() + 31 * 60);
    clockMs += 32 * 60 * 1000;
    const [got] = await waitFor(() => {
      const r = receiver.accepted('checkout.session.expired', session.id);
      return r.length ? r : false;
    }, 'checkout.session.expired from the timer');
    expect(got.event.data.object).toMatchObject({
      id: session.id,
      status: 'expired',
      metadata: { orderId: 'order_42', userId: 'user_7' },
    });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');

    const html = await (await fetch(session.url as string)).text();
    expect(html).toContain('Checkout expired');
    expect(html).not.toContain('>Pay $');
    const post = await fetch(`${local.url}/pay/${session.id}`, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242424242424242' }),
      redirect: 'manual',
    });
    expect(post.status).toBe(409);
    const pay = await simulatePay(session.id);
    expect(pay.status).toBe(400);
    expect(pay.body.error.message).toContain('expired');
  });
});

describe('persistence', () => {
  test('sessions, payments and events survive a restart with the same dataFile', async () => {
    const open = await stripe.checkout.sessions.create(sessionParams({ metadata: { orderId: 'persist-open' } }));
    const paidSession = await stripe.checkout.sessions.create(sessionParams({ metadata: { orderId: 'persist-paid' } }));
    const { body } = await simulatePay(paidSession.id);

    await local.close();
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'stripe.json'), 'utf8')) as {
      sessions: Record<string, unknown>;
    };
    expect(Object.keys(saved.sessions)).toEqual(expect.arrayContaining([open.id, paidSession.id]));

    local = await startLocalStripe(options());
    stripe = clientFor(local);
    const reopened = await stripe.checkout.sessions.retrieve(open.id);
    expect(reopened).toMatchObject({ status: 'open', metadata: { orderId: 'persist-open' }, amount_total: 998 });
    expect(reopened.url).toBe(`${local.url}/pay/${open.id}`);
    const completed = await stripe.checkout.sessions.retrieve(paidSession.id);
    expect(completed).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: body.payment_intent.id,
    });
    expect((await stripe.paymentIntents.retrieve(body.payment_intent.id)).status).toBe('succeeded');

    const after = await simulatePay(open.id);
    expect(after.status).toBe(200);
    await waitFor(() => receiver.accepted('checkout.session.completed', open.id).length > 0, 'payment after restart');
  });

  test('a delivery still pending at shutdown is retried after the restart', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    await local.close();
    // Retries far in the future: only the restart can bring the event through in time.
    local = await startLocalStripe({ ...options(), webhookRetryDelaysMs: [60_000] });
    stripe = clientFor(local);
    receiver.failFirstCompletedFor.add(session.id);
    const { body } = await simulatePay(session.id);
    expect(body.delivery).toMatchObject({ status: 'pending', attempts: [500] });
    await local.close();
    expect(receiver.accepted('checkout.session.completed', session.id)).toHaveLength(0);

    local = await startLocalStripe(options());
    stripe = clientFor(local);
    const [got] = await waitFor(() => {
      const r = receiver.accepted('checkout.session.completed', session.id);
      return r.length ? r : false;
    }, 'the resumed delivery');
    expect(got.event.id).toBe(body.event.id);
  });
});
