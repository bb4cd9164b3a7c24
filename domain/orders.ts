/**
 * Orders and generations: the rules shared by checkout, the Stripe webhook, the order pipeline and the result API.
 * Pure (no AWS, no Stripe); amounts are integer cents as in domain/pricing.ts.
 */
import { formatPrice } from './pricing';

/**
 * Lifetime of a Checkout Session. Stripe requires expires_at to be at least 30 minutes after the session is
 * created (by its clock, after our request arrives), so a minute of margin keeps "30 minutes" from being refused.
 */
export const CHECKOUT_SESSION_SECONDS = 31 * 60;

/** 'refunded': paid, but not ours to fulfil (the amount did not match), so the whole payment went back. */
export type OrderStatus = 'created' | 'paid' | 'expired' | 'refunded';

/**
 * Timeout of the Stripe webhook function (domain/api-routes.ts). Lambda stops a run at this age, so it also bounds how
 * long a run handling an event can hold it (lambdas/lib/idempotency.ts).
 */
export const WEBHOOK_TIMEOUT_SECONDS = 30;

/** Minutes a paid order has to be delivered (lib/config.ts orderDeadlineMinutes). */
export const DEFAULT_ORDER_DEADLINE_MINUTES = 120;
/** After the deadline: time for the last item's run, Finalize (the refunds) and the e-mail. */
const PIPELINE_GRACE_SECONDS = 15 * 60;

/**
 * The one definition of an order's time limits, from its deadline: items wait for capacity until `deadlineSeconds`
 * after payment, then fail and are refunded; the pipeline's execution times out `pipelineTimeoutSeconds` after it
 * started (Finalize and the e-mail fit after the deadline); the reconciler closes a generation still unfinished
 * `stuckAfterSeconds` after it was created (its pipeline would have timed out by then).
 */
export function orderTimeline(deadlineMinutes: number) {
  const deadlineSeconds = deadlineMinutes * 60;
  return {
    deadlineSeconds,
    pipelineTimeoutSeconds: deadlineSeconds + PIPELINE_GRACE_SECONDS,
    stuckAfterSeconds: deadlineSeconds + 2 * PIPELINE_GRACE_SECONDS,
  };
}

/** When a generation created at `createdAt` must be done, as stored on its record (ISO 8601). */
export const deadlineAt = (createdAt: Date, deadlineMinutes: number) =>
  new Date(createdAt.getTime() + deadlineMinutes * 60_000).toISOString();
export type GenerationStatus = 'pending' | 'processing' | 'completed' | 'failed';
export type ItemStatus = 'pending' | 'done' | 'failed';

/** One (photo, style) pair of an order; the unit that is generated, counted and refunded. */
export interface OrderItem {
  image_hash: string;
  style: string;
}

/** Customer-facing reasons an item failed, shown on the status page. */
export const ITEM_ERRORS = {
  refused: 'This photo did not pass our safety check, so it was not processed.',
  render: 'This image could not be generated.',
  stopped: 'Processing stopped because of a technical problem.',
  deadline: 'This image could not be made in time: we were too busy.',
  quality: 'This image did not pass our quality check (it came out blank or lost the photo) after three tries.',
  faces: 'This image did not keep the people of your photo recognisable (our likeness check) after three tries.',
} as const;

/** Key of an item in the generation record's item map. Hashes are hex and style ids have no ':'. */
export const itemKey = (hash: string, style: string) => `${hash}:${style}`;

/** Every (photo, style) pair, photos in order, styles in order: the order's generations. */
export function orderItems(hashes: readonly string[], styles: readonly string[]): OrderItem[] {
  return hashes.flatMap((image_hash) => styles.map((style) => ({ image_hash, style })));
}

/**
 * What `undelivered` of `generations` items are worth out of the amount paid. The order is charged as one total
 * (the 30% discount is rounded on the whole), so a share is rounded to the cent and everything undelivered is
 * exactly the total: partial refunds can never add up to more than was paid.
 */
export function refundFor(total: number, generations: number, undelivered: number): number {
  if (generations <= 0 || undelivered <= 0) return 0;
  if (undelivered >= generations) return total;
  return Math.round((total * undelivered) / generations);
}

/** Finished items as a whole percentage; 100 only when every item is finished. */
export function progressPercent(finished: number, total: number): number {
  if (total <= 0) return 0;
  if (finished >= total) return 100;
  return Math.min(99, Math.floor((finished * 100) / total));
}

/** Where one item of an order is, as the status API reports it (`queued`: pending, waiting for capacity). */
export const ITEM_STATES = ['pending', 'queued', 'done', 'failed'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export interface ItemProgress {
  /** Items delivered. */
  ready: number;
  /** Items that could not be made (refunded). */
  failed: number;
  /** Items waiting for capacity. */
  queued: number;
  total: number;
  /** Finished (ready or failed) items as a whole percentage: the status API's `progress`, the page's bar. */
  percent: number;
}

/** The one definition of an order's progress, from its items: each finished item moves it. */
export function itemProgress(items: readonly { state: ItemState }[]): ItemProgress {
  const count = (state: ItemState) => items.filter((i) => i.state === state).length;
  const ready = count('done');
  const failed = count('failed');
  return {
    ready,
    failed,
    queued: count('queued'),
    total: items.length,
    percent: progressPercent(ready + failed, items.length),
  };
}

/** The generation's final status once no item is pending: anything delivered makes it completed. */
export function finalStatus(done: number): Extract<GenerationStatus, 'completed' | 'failed'> {
  return done > 0 ? 'completed' : 'failed';
}

/** Customer-facing summary of what went wrong with an order, with the refund in words; null when nothing failed. */
export function failureText(opts: {
  done: number;
  failed: number;
  refundCents: number;
  reason?: string;
}): string | null {
  const { done, failed, refundCents } = opts;
  if (failed <= 0) return null;
  const refund = refundCents > 0 ? ` ${formatPrice(refundCents)} has been refunded to your card.` : '';
  if (done === 0) return `${opts.reason ?? 'We could not generate your images.'}${refund}`;
  return `${failed} of ${done + failed} images could not be generated.${refund}`;
}
