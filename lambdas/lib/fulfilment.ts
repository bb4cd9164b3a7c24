import type Stripe from 'stripe';
import { METRICS } from '../../domain/wiring';
import { pausePoint } from './fault-points';
import { createGeneration } from './generations';
import { countMetric, logContext, logger } from './observability';
import { getOrder, markOrderPaid, markOrderRefunded, type OrderRecord } from './orders';
import { settings } from './settings';
import { startExecution } from './workflows';

/**
 * Whether a Checkout Session is the one checkout created for this order (its id is stored on the order before the
 * customer ever sees the payment page). `metadata.order_id` and `client_reference_id` only name an order: any other
 * session of the Stripe account can carry them (a Payment Link takes `client_reference_id` from its URL).
 */
export const isOrdersSession = (order: OrderRecord, session: Stripe.Checkout.Session) =>
  order.session_id !== undefined && session.id === order.session_id;

/**
 * Fulfils a paid Checkout Session: the order becomes paid, its generation record is created and the order pipeline's
 * execution (named after the order) is started. The Stripe webhook and the reconciler both call this, and every step
 * is idempotent (conditional writes, one execution name per order), so running it again after a crash at any point,
 * or twice at once, finishes the same single fulfilment. Returns what happened, for the logs.
 */
export async function fulfilSession(session: Stripe.Checkout.Session, stripe: Stripe): Promise<string> {
  const orderId = session.metadata?.order_id || session.client_reference_id;
  if (!orderId) return 'ignored: session without order';
  logContext({ order_id: orderId });
  const order = await getOrder(orderId);
  if (!order) {
    logger.error('order of a paid session not found', { session_id: session.id });
    return 'ignored: unknown order';
  }
  const paymentIntent =
    typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  // Completed but unpaid: a delayed payment method; async_payment_succeeded follows when the money arrives.
  if (session.payment_status !== 'paid') return 'awaiting payment';
  if (!paymentIntent) throw new Error(`Paid session ${session.id} has no payment intent`);

  if (!isOrdersSession(order, session)) {
    // Money taken for an order it does not pay for: nothing is delivered for it, so it goes back whole, as a wrong
    // amount does below. The order is left as it is: its own session may still be paid (or already was).
    logger.error("a paid session that is not the order's own names the order: refunding it", {
      session_id: session.id,
      order_session_id: order.session_id,
      amount_total: session.amount_total,
    });
    await refundWhole(stripe, paymentIntent, orderId, "not the order's session", `foreign-${session.id}`);
    return "refunded: not the order's session";
  }
  if (order.status === 'refunded') return 'order already refunded';
  if (session.amount_total !== order.total || session.currency !== order.currency) {
    // Checkout always charges the order's total; anything else is not ours to fulfil, so the payment goes back.
    logger.error('paid amount differs from the order total: refunding', {
      session_id: session.id,
      amount_total: session.amount_total,
      currency: session.currency,
      total: order.total,
    });
    await refundWhole(stripe, paymentIntent, orderId, 'amount mismatch', `mismatch-${orderId}`);
    await markOrderRefunded(orderId, 'amount mismatch');
    return 'refunded: amount mismatch';
  }

  const paid = await markOrderPaid(orderId, paymentIntent, session.id);
  if (!paid) return 'order already refunded';
  await pausePoint('fulfil:paid');
  await createGeneration(paid, paid.payment_intent ?? paymentIntent);
  await pausePoint('fulfil:generation');
  // Named after the order: a second start (replay, retry, race, reconciler) finds the execution and starts nothing.
  await startExecution(settings.orderMachineArn, orderId, { order_id: orderId });
  await pausePoint('fulfil:started');
  if (order.status !== 'paid') countMetric(METRICS.ordersPaid);
  return 'order paid, generation started';
}

/**
 * Refunds a payment in full. A redelivery after Stripe forgot the idempotency key (24 h) finds it refunded already:
 * that is the outcome asked for, not an error to retry for days.
 */
async function refundWhole(stripe: Stripe, paymentIntent: string, orderId: string, reason: string, key: string) {
  try {
    await stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { order_id: orderId, reason } },
      { idempotencyKey: key },
    );
  } catch (err) {
    if ((err as { code?: string }).code !== 'charge_already_refunded') throw err;
  }
}
