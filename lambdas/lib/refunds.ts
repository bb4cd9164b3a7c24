import { refundFor } from '../../domain/orders';
import { METRICS } from '../../domain/wiring';
import { type GenerationRecord, getGeneration, type RefundInfo, recordRefund } from './generations';
import { countMetric, logger } from './observability';
import { payments } from './payments';

/**
 * Refunds whatever of the order was not delivered and is not refunded yet; returns the refund state afterwards.
 * The idempotency key names the number of undelivered items, and the amount asked for is the difference to what is
 * already recorded, so a retried task repeats the very same request (Stripe answers it from its idempotency cache)
 * and a later, larger refund (the top-level failure handler) asks only for the rest.
 */
export async function refundUndelivered(generationId: string, reason: string): Promise<RefundInfo | undefined> {
  const generation = await getGeneration(generationId);
  if (!generation) throw new Error(`Generation ${generationId} not found`);
  const undelivered = countUndelivered(generation);
  const target = refundFor(generation.total, generation.item_count, undelivered);
  const already = generation.refund?.amount ?? 0;
  if (target <= already) return generation.refund;

  const { stripe } = await payments();
  let refund: Awaited<ReturnType<typeof stripe.refunds.create>>;
  try {
    refund = await stripe.refunds.create(
      {
        payment_intent: generation.payment_intent,
        amount: target - already,
        metadata: {
          order_id: generation.order_id,
          undelivered_items: String(undelivered),
          reason: reason.slice(0, 450),
        },
      },
      { idempotencyKey: `refund-${generation.order_id}-${undelivered}` },
    );
  } catch (err) {
    // The customer stays charged until someone acts: the RefundFailures alarm is critical (lib/monitoring.ts).
    countMetric(METRICS.refundFailures);
    logger.error('refund failed', { amount: target - already, undelivered_items: undelivered, error: err as Error });
    throw err;
  }
  countMetric(METRICS.itemsRefunded, undelivered - (generation.refund?.items ?? 0));
  const info: RefundInfo = {
    amount: target,
    currency: generation.currency,
    items: undelivered,
    refund_ids: [...(generation.refund?.refund_ids ?? []), refund.id],
    refunded_at: new Date().toISOString(),
  };
  await recordRefund(generationId, info);
  return info;
}

export const countUndelivered = (g: GenerationRecord) =>
  Object.values(g.items).filter((i) => i.status !== 'done').length;
