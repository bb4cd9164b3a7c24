import type Stripe from 'stripe';
import { METRICS } from '../../domain/wiring';
import { pausePoint } from './fault-points';
import { countMetric, logContext, logger } from './observability';
import { createGeneration, getOrder, markOrderPaid, markOrderRefunded } from './orders';
import { settings } from './settings';
import { startExecution } from './workflows';

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
  // Completed but unpaid: a delayed payment method; async_payment_succeeded follows when the money arrives.
  if (session.payment_status !== 'paid') return 'awaiting payment';
  if (order.status === 'refunded') return 'order already refunded';

  const paymentIntent =
    typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!paymentIntent) throw new Error(`Paid session ${session.id} has no payment intent`);
  if (session.amount_total !== order.total || session.currency !== order.currency) {
    // Checkout always charges the order's total; anything else is not ours to fulfil, so the payment goes back.
    logger.error('paid amount differs from the order total: refunding', {
      session_id: session.id,
      amount_total: session.amount_total,
      currency: session.currency,
      total: order.total,
    });
    await stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { order_id: orderId, reason: 'amount mismatch' } },
      { idempotencyKey: `mismatch-${orderId}` },
    );
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
