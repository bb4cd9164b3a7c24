import { ITEM_ERRORS } from '../../domain/orders';
import { sendOrderEmail } from '../lib/mail';
import { settleGeneration } from '../lib/order-outcome';
import { getGeneration } from '../lib/orders';
import { describeFailure, type JobFailedInput } from './job-failed';
import type { OrderInput } from './order-prepare';

/**
 * Order pipeline, top-level Catch: whatever broke, the customer keeps what was delivered, gets back the rest of the
 * money, and hears about it. Each part is idempotent and does nothing when an earlier step already did it.
 */
export async function handler(input: OrderInput & { error?: JobFailedInput['error'] }) {
  const reason = `${input.error?.Error ?? 'Error'}: ${describeFailure(input.error)}`;
  console.error(JSON.stringify({ level: 'error', order_id: input.order_id, message: `order pipeline failed: ${reason}` }));
  const outcome = await settleGeneration(input.order_id, { error: ITEM_ERRORS.stopped, detail: reason });
  let email: string;
  try {
    email = await sendOrderEmail((await getGeneration(input.order_id))!);
  } catch (err) {
    email = `not sent: ${(err as Error).message}`;
    console.error(JSON.stringify({ level: 'error', order_id: input.order_id, message: `order e-mail ${email}` }));
  }
  return { ...outcome, email, reason };
}
