import { ITEM_ERRORS } from '../../domain/orders';
import { sendOrderEmail } from '../lib/mail';
import { settleGeneration } from '../lib/order-outcome';
import { getGeneration } from '../lib/orders';
import { describeFailure, type JobFailedInput } from './job-failed';
import type { OrderInput } from './order-prepare';
import { taskHandler } from '../lib/task';
import { logger } from '../lib/observability';

/**
 * Order pipeline, top-level Catch: whatever broke, the customer keeps what was delivered, gets back the rest of the
 * money, and hears about it. Each part is idempotent and does nothing when an earlier step already did it.
 */
async function run(input: OrderInput & { error?: JobFailedInput['error'] }) {
  const reason = `${input.error?.Error ?? 'Error'}: ${describeFailure(input.error)}`;
  logger.error('order pipeline failed', { reason });
  const outcome = await settleGeneration(input.order_id, { error: ITEM_ERRORS.stopped, detail: reason });
  let email: string;
  try {
    email = await sendOrderEmail((await getGeneration(input.order_id))!);
  } catch (err) {
    email = `not sent: ${(err as Error).message}`;
    logger.error('order e-mail not sent', { error: err as Error });
  }
  return { ...outcome, email, reason };
}

export const handler = taskHandler('order-failed', run);
