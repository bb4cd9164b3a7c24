import { logger } from '../lib/observability';
import { closeBrokenOrder } from '../lib/order-outcome';
import { taskHandler } from '../lib/task';
import { describeFailure, type JobFailedInput } from './job-failed';
import type { OrderInput } from './order-prepare';

/** Order pipeline, top-level Catch: whatever broke, the order is closed (see closeBrokenOrder). */
async function run(input: OrderInput & { error?: JobFailedInput['error'] }) {
  const reason = `${input.error?.Error ?? 'Error'}: ${describeFailure(input.error)}`;
  logger.error('order pipeline failed', { reason });
  return { ...(await closeBrokenOrder(input.order_id, reason)), reason };
}

export const handler = taskHandler('order-failed', run);
