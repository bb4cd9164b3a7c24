import type Stripe from 'stripe';
import { badRequest, HttpError, httpHandler, json } from '../lib/http';
import { claimEvent, completeEvent, createGeneration, getOrder, markOrderExpired, markOrderPaid, releaseEvent } from '../lib/orders';
import { payments } from '../lib/payments';
import { settings } from '../lib/settings';
import { startExecution } from '../lib/workflows';
import { METRICS } from '../../domain/wiring';
import { countMetric, logContext, logger } from '../lib/observability';

/** How far ahead of our clock a signed webhook timestamp may be (Stripe's own tolerance for age is 300 s too). */
const MAX_CLOCK_SKEW_SECONDS = 300;

/** The timestamp a verified Stripe-Signature header signs, read as the SDK reads it (the last `t=`); unreadable → +∞. */
function signedAt(header: string): number {
  let t = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') t = Number.parseInt(value, 10);
  }
  return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
}

const HANDLED = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.expired']);

/**
 * POST /api/stripe-webhook: Stripe's signed events. The signature is checked on the raw body; each event id is
 * claimed once in the events table, and every step after the claim is idempotent too (conditional writes, an
 * execution named after the order), so a replayed or concurrent delivery can never start a second generation.
 * A failure releases the claim and answers 500, so Stripe's retry does the work.
 */
export const handler = httpHandler(async (event) => {
  // No payments are taken before launch, so there is no signing secret to check anything against.
  if (settings.paymentMode === 'prelaunch') throw new HttpError(409, 'Payments are not live yet.');
  const signature = event.headers['stripe-signature'];
  if (!signature) throw badRequest('Missing Stripe-Signature header.');
  const payload = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  const { stripe, webhookSecret } = await payments();
  let evt: Stripe.Event;
  try {
    evt = stripe.webhooks.constructEvent(payload, signature, webhookSecret);
  } catch (err) {
    // Stripe's messages run to several lines of advice; the first line says what failed.
    throw badRequest(`Webhook signature verification failed: ${(err as Error).message.split('\n')[0].trim().slice(0, 120)}`);
  }
  // The SDK checks only the age of the signed timestamp; a future one would stay replayable until then.
  if (signedAt(signature) > Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS) throw badRequest('Webhook timestamp is in the future.');
  logContext({ event_id: evt.id });
  if (!HANDLED.has(evt.type)) return json(200, { received: true, ignored: evt.type });
  if (!(await claimEvent(evt.id, evt.type))) return json(200, { received: true, duplicate: true });
  try {
    const outcome = await handle(evt, stripe);
    await completeEvent(evt.id, outcome);
    logger.info('webhook handled', { type: evt.type, outcome });
    return json(200, { received: true, outcome });
  } catch (err) {
    await releaseEvent(evt.id).catch(() => {});
    throw err;
  }
});

async function handle(evt: Stripe.Event, stripe: Stripe): Promise<string> {
  const session = evt.data.object as Stripe.Checkout.Session;
  const orderId = session.metadata?.order_id || session.client_reference_id;
  if (!orderId) return 'ignored: session without order';
  logContext({ order_id: orderId });
  const order = await getOrder(orderId);
  if (!order) {
    logger.error('order of a paid session not found', { session_id: session.id });
    return 'ignored: unknown order';
  }

  if (evt.type === 'checkout.session.expired') return (await markOrderExpired(orderId)) ? 'order expired' : `order already ${order.status}`;
  // Completed but unpaid: a delayed payment method; async_payment_succeeded follows when the money arrives.
  if (evt.type === 'checkout.session.completed' && session.payment_status !== 'paid') return 'awaiting payment';

  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!paymentIntent) throw new Error(`Paid session ${session.id} has no payment intent`);
  if (session.amount_total !== order.total || session.currency !== order.currency) {
    // Checkout always charges the order's total; anything else is not ours to fulfil, so the payment goes back.
    logger.error('paid amount differs from the order total: refunding', { amount_total: session.amount_total, currency: session.currency, total: order.total });
    await stripe.refunds.create({ payment_intent: paymentIntent, metadata: { order_id: orderId, reason: 'amount mismatch' } }, { idempotencyKey: `mismatch-${orderId}` });
    return 'refunded: amount mismatch';
  }

  const paid = await markOrderPaid(orderId, paymentIntent, session.id);
  await createGeneration(paid, paid.payment_intent ?? paymentIntent);
  // Named after the order: a second start (replay, retry, race) finds the execution and starts nothing.
  await startExecution(settings.orderMachineArn, orderId, { order_id: orderId });
  if (order.status !== 'paid') countMetric(METRICS.ordersPaid);
  return 'order paid, generation started';
}
