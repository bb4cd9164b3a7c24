import { type ReceiptLine, receiptLines } from '../../domain/order-receipt';
import type { GenerationRecord } from './generations';
import { getOrder } from './orders';

/**
 * An order's receipt, for the e-mail and the status page alike: the figures charged (the order record) and the
 * generation's refund with the customer-facing reasons of what was not delivered; null if the order record is gone.
 */
export async function receiptOf(generation: GenerationRecord): Promise<ReceiptLine[] | null> {
  const order = await getOrder(generation.order_id);
  if (!order) return null;
  const undelivered = Object.values(generation.items).filter((i) => i.status !== 'done');
  const reasons = [...new Set(undelivered.map((i) => i.error).filter((e): e is string => !!e))];
  const refund = generation.refund;
  return receiptLines({
    photos: order.hashes.length,
    styles: order.styles,
    generations: order.generations,
    pricePerImage: order.price_per_generation,
    originalPrice: order.original_price,
    discount: order.discount,
    total: order.total,
    refund: refund ? { amount: refund.amount, items: refund.items, reasons } : undefined,
  });
}
