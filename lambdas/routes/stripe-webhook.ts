import type Stripe from 'stripe';
import { METRICS } from '../../domain/wiring';
import { pausePoint } from '../lib/fault-points';
import { fulfilSession, isOrdersSession } from '../lib/fulfilment';
import { badRequest, HttpError, httpHandler, respond } from '../lib/http';
import { InProgress, once } from '../lib/idempotency';
import { countMetric, logContext, logger } from '../lib/observability';
import { getOrder, markOrderDisputed, markOrderExpired } from '../lib/orders';
import { payments } from '../lib/payments';
import { settings } from '../lib/settings';

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

const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
  'charge.dispute.created',
]);

/**
 * Each event is handled once (lambdas/lib/idempotency.ts), keyed by its id; its outcome is kept only once everything
 * it causes is durable (for a payment: the execution exists). The work's result is the outcome.
 */
const handleOnce = once(
  { name: 'stripe-event', key: 'evt.id' },
  async ({ evt, stripe }: { evt: Stripe.Event; stripe: Stripe }) => {
    await pausePoint('webhook:claimed');
    return handle(evt, stripe);
  },
);

/**
 * POST /api/stripe-webhook: Stripe's signed events. The signature is checked on the raw body; then the event is
 * handled once. A redelivery while another delivery is at work gets a 409, so Stripe tries again later; once that
 * delivery's function would have timed out (it died), a redelivery takes over and runs the idempotent fulfilment
 * again. A failure answers 500 and leaves no record, so Stripe's retry does the work.
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
    throw badRequest(
      `Webhook signature verification failed: ${(err as Error).message.split('\n')[0].trim().slice(0, 120)}`,
    );
  }
  // The SDK checks only the age of the signed timestamp; a future one would stay replayable until then.
  if (signedAt(signature) > Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS)
    throw badRequest('Webhook timestamp is in the future.');
  logContext({ event_id: evt.id });
  if (!HANDLED.has(evt.type)) return respond('stripe-webhook', 200, { received: true, ignored: evt.type });
  let handled: { result: string; replayed: boolean };
  try {
    handled = await handleOnce({ evt, stripe });
  } catch (err) {
    if (err instanceof InProgress)
      throw new HttpError(409, 'This event is being handled by another delivery. Try again later.');
    throw err;
  }
  if (handled.replayed) return respond('stripe-webhook', 200, { received: true, duplicate: true });
  logger.info('webhook handled', { type: evt.type, outcome: handled.result });
  return respond('stripe-webhook', 200, { received: true, outcome: handled.result });
});

async function handle(evt: Stripe.Event, stripe: Stripe): Promise<string> {
  if (evt.type === 'charge.dispute.created') return recordDispute(evt.data.object as Stripe.Dispute, stripe);
  const session = evt.data.object as Stripe.Checkout.Session;
  if (evt.type !== 'checkout.session.expired') return fulfilSession(session, stripe);
  const orderId = session.metadata?.order_id || session.client_reference_id;
  if (!orderId) return 'ignored: session without order';
  logContext({ order_id: orderId });
  const order = await getOrder(orderId);
  if (!order) return 'ignored: unknown order';
  // Only the order's own session ends it; another session naming it must not cancel a payment still to come.
  if (!isOrdersSession(order, session)) return "ignored: not the order's session";
  return (await markOrderExpired(orderId)) ? 'order expired' : `order already ${order.status}`;
}

/**
 * A chargeback: counted (every dispute alarms, lib/monitoring.ts) and recorded on the order it was paid for. A dispute
 * names only the payment; checkout put the order id in the PaymentIntent's metadata, and the order must have been
 * paid by that very PaymentIntent (another payment naming the order is not the order's).
 */
async function recordDispute(dispute: Stripe.Dispute, stripe: Stripe): Promise<string> {
  const paymentIntent =
    typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
  const order = await disputedOrder(paymentIntent, stripe);
  if (order) {
    logContext({ order_id: order.order_id });
    await markOrderDisputed(order.order_id, dispute);
  }
  const outcome = order ? 'order disputed' : 'dispute of a payment without an order';
  const { id, reason, amount, currency } = dispute;
  logger.warn('payment disputed', { dispute_id: id, reason, amount, currency, payment_intent: paymentIntent, outcome });
  countMetric(METRICS.paymentsDisputed);
  return outcome;
}

async function disputedOrder(paymentIntent: string | undefined, stripe: Stripe) {
  if (!paymentIntent) return null;
  const orderId = (await stripe.paymentIntents.retrieve(paymentIntent)).metadata?.order_id;
  const order = orderId ? await getOrder(orderId) : null;
  return order?.payment_intent === paymentIntent ? order : null;
}
