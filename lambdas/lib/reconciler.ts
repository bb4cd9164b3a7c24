import type Stripe from 'stripe';
import { orderTimeline } from '../../domain/orders';
import { fulfilSession, isOrdersSession } from './fulfilment';
import { getGeneration, isFinished } from './generations';
import { logger } from './observability';
import { closeBrokenOrder } from './order-outcome';
import { getOrder } from './orders';
import { settings } from './settings';
import { executionArn, executionStatus, stopExecution } from './workflows';

/** Sessions created this long ago or less are checked: Checkout Sessions live at most 24 h, Stripe retries webhooks for 3 days. */
export const RECONCILE_LOOKBACK_SECONDS = 3 * 24 * 3600;
/** A generation unfinished this long after it was created is stuck: its pipeline would have timed out by then. */
export const stuckAfterSeconds = () => orderTimeline(settings.orderDeadlineMinutes).stuckAfterSeconds;

export type RepairKind =
  | 'session-paid-order-unpaid'
  | 'order-paid-without-generation'
  | 'generation-without-execution'
  | 'execution-ended-unfinished'
  | 'generation-stuck';

export interface Repair {
  repair: RepairKind;
  order_id: string;
  session_id: string;
  detail: string;
}

/**
 * Brings one paid Checkout Session's order to where it must be, or returns null when nothing is wrong:
 * the order is paid and generating (or done and e-mailed). Every repair reuses the code path that normally does the
 * work (the webhook's fulfilment, the pipeline's start, the "Order failed" close), so it is as idempotent as they are
 * and safe to run while the webhook or the pipeline are still at work on the same order.
 */
export async function reconcileSession(
  session: Stripe.Checkout.Session,
  stripe: Stripe,
  nowMs = Date.now(),
): Promise<Repair | null> {
  const orderId = session.metadata?.order_id || session.client_reference_id;
  if (!orderId || session.payment_status !== 'paid') return null;
  const order = await getOrder(orderId);
  // Another session naming the order (not the one checkout made for it) never fulfils or repairs it: the webhook
  // refunded that payment (lambdas/lib/fulfilment.ts); run again every pass, it would only be counted as a repair.
  if (!order || order.status === 'refunded' || !isOrdersSession(order, session)) return null;
  const repair = (kind: RepairKind, detail: string): Repair => ({
    repair: kind,
    order_id: orderId,
    session_id: session.id,
    detail,
  });

  const generation = order.status === 'paid' ? await getGeneration(orderId) : null;
  if (order.status !== 'paid' || !generation) {
    const outcome = await fulfilSession(session, stripe);
    return repair(order.status === 'paid' ? 'order-paid-without-generation' : 'session-paid-order-unpaid', outcome);
  }
  if (isFinished(generation) && generation.email_sent_at) return null;

  const arn = executionArn(settings.orderMachineArn, orderId);
  const execution = await executionStatus(arn);
  if (execution.status === 'MISSING' && !isFinished(generation)) {
    return repair('generation-without-execution', await fulfilSession(session, stripe));
  }
  if (execution.status === 'RUNNING' || execution.status === 'PENDING_REDRIVE') {
    // A live pipeline finishes the order itself (e-mail included), unless it is past any sane deadline.
    if (isFinished(generation) || nowMs - Date.parse(generation.created_at) < stuckAfterSeconds() * 1000) return null;
    const reason = `generation still ${generation.status} ${Math.round((nowMs - Date.parse(generation.created_at)) / 60_000)} min after it was created`;
    await stopExecution(arn, reason);
    const closed = await closeBrokenOrder(orderId, reason);
    return repair(
      'generation-stuck',
      `${reason}; execution stopped; ${closed.status}, refunded ${closed.refunded}, e-mail ${closed.email}`,
    );
  }
  // The execution ended (or never existed for a finished generation) without a final state or without the e-mail.
  const reason = `execution ${execution.status}${execution.error ? ` (${execution.error})` : ''} with the generation ${generation.status}, e-mail ${generation.email_sent_at ? 'sent' : 'not sent'}`;
  const closed = await closeBrokenOrder(orderId, reason);
  return repair(
    'execution-ended-unfinished',
    `${reason}; ${closed.status}, refunded ${closed.refunded}, e-mail ${closed.email}`,
  );
}

/**
 * One pass over every Checkout Session Stripe reports complete in the lookback window. Each repair is logged as one
 * JSON line (message "reconciled"); a session whose repair fails is logged and left for the next pass (the others go on).
 */
export async function reconcile(stripe: Stripe, nowMs = Date.now()) {
  const since = Math.floor(nowMs / 1000) - RECONCILE_LOOKBACK_SECONDS;
  let checked = 0;
  const repairs: Repair[] = [];
  const errors: { session_id: string; message: string }[] = [];
  for await (const session of stripe.checkout.sessions.list({
    status: 'complete',
    created: { gte: since },
    limit: 100,
  })) {
    checked++;
    try {
      const done = await reconcileSession(session, stripe, nowMs);
      if (!done) continue;
      repairs.push(done);
      // A warning: each repair means something failed earlier (and it shows in the local runtime's log too).
      logger.warn('reconciled', { ...done });
    } catch (err) {
      errors.push({ session_id: session.id, message: (err as Error).message });
      logger.error('reconcile failed', { session_id: session.id, error: err as Error });
    }
  }
  return { checked, repairs, errors };
}
