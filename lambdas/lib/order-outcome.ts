import { failureText, finalStatus, ITEM_ERRORS } from '../../domain/orders';
import { finishGeneration, finishItem, getGeneration } from './generations';
import { sendOrderEmail } from './mail';
import { logger } from './observability';
import { refundUndelivered } from './refunds';

/**
 * Closes a generation: items still pending fail with `pendingReason`, whatever was not delivered is refunded,
 * and the generation becomes completed (something delivered) or failed (nothing). Safe to run any number of times.
 */
export async function settleGeneration(id: string, pendingReason: { error: string; detail: string }) {
  const before = await getGeneration(id);
  if (!before) throw new Error(`Generation ${id} not found`);
  for (const item of Object.values(before.items).filter((i) => i.status === 'pending')) {
    await finishItem(id, item, { status: 'failed', ...pendingReason });
  }
  const refund = await refundUndelivered(id, 'images that could not be generated');
  const after = (await getGeneration(id))!;
  const items = Object.values(after.items);
  const done = items.filter((i) => i.status === 'done').length;
  const failedItems = items.filter((i) => i.status !== 'done');
  const status = finalStatus(done);
  const error = failureText({
    done,
    failed: failedItems.length,
    refundCents: refund?.amount ?? 0,
    reason: failedItems.every((i) => i.error === ITEM_ERRORS.refused)
      ? 'Your photos did not pass our safety check, so they were not processed.'
      : undefined,
  });
  await finishGeneration(id, status, error);
  return { status, done, failed: failedItems.length, refunded: refund?.amount ?? 0 };
}

/**
 * Ends an order whose pipeline broke, whatever broke it (the pipeline's own "Order failed" step, or the reconciler
 * after an execution ended or got stuck): the customer keeps what was delivered, gets back the rest of the money and
 * hears about it once. Each part is idempotent and does nothing when an earlier run already did it.
 */
export async function closeBrokenOrder(orderId: string, reason: string) {
  const outcome = await settleGeneration(orderId, { error: ITEM_ERRORS.stopped, detail: reason });
  let email: string;
  try {
    email = await sendOrderEmail((await getGeneration(orderId))!);
  } catch (err) {
    email = `not sent: ${(err as Error).message}`;
    logger.error('order e-mail not sent', { order_id: orderId, error: err as Error });
  }
  return { ...outcome, email };
}
