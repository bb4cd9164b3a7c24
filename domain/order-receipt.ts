/**
 * The receipt of a paid order: what was bought (photos × styles), what it cost, the discount, what was paid and
 * what was refunded and why. Amounts are the order record's cents, formatted here once (formatPrice) for every
 * place that shows a receipt.
 */
import type { TableRow } from './email-template';
import { formatPrice } from './pricing';
import { getStyle } from './styles';

export interface ReceiptInput {
  photos: number;
  /** Style ids, in the order's order. */
  styles: readonly string[];
  /** photos × styles: the images bought. */
  generations: number;
  /** Cents, as charged (the order record's figures). */
  pricePerImage: number;
  originalPrice: number;
  discount: number;
  total: number;
  /** What was refunded so far, for how many images, and the customer-facing reasons they were not delivered. */
  refund?: { amount: number; items: number; reasons: readonly string[] };
}

/** One row: what, how much, a detail under it (the styles, a refund's reasons), and whether it is a total. */
export type ReceiptLine = TableRow;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function receiptLines(r: ReceiptInput): ReceiptLine[] {
  const names = r.styles.map((id) => getStyle(id)?.name ?? id).join(', ');
  const bought =
    `${plural(r.generations, 'image', 'images')} (${plural(r.photos, 'photo', 'photos')} × ` +
    `${plural(r.styles.length, 'style', 'styles')}) at ${formatPrice(r.pricePerImage)}`;
  const lines: ReceiptLine[] = [{ label: bought, value: formatPrice(r.originalPrice), note: names }];
  if (r.discount > 0) lines.push({ label: 'Discount', value: formatPrice(-r.discount) });
  lines.push({ label: 'Paid', value: formatPrice(r.total), strong: true });
  if (r.refund && r.refund.amount > 0) {
    lines.push({
      label: `Refunded: ${plural(r.refund.items, 'image', 'images')} not delivered`,
      value: formatPrice(-r.refund.amount),
      ...(r.refund.reasons.length ? { note: r.refund.reasons.join(' ') } : {}),
    });
    lines.push({ label: 'Paid after the refund', value: formatPrice(r.total - r.refund.amount), strong: true });
  }
  return lines;
}
