import { ITEM_ERRORS } from '../../domain/orders';
import { pausePoint } from '../lib/fault-points';
import { settleGeneration } from '../lib/order-outcome';
import { taskHandler } from '../lib/task';
import type { OrderInput } from './order-prepare';

/** Order pipeline, after the Map: refunds the items that failed and sets the generation's final status. */
async function run(input: OrderInput) {
  const outcome = await settleGeneration(input.order_id, {
    error: ITEM_ERRORS.render,
    detail: 'still pending after the generation step',
  });
  await pausePoint('order:finalized');
  return outcome;
}

export const handler = taskHandler('order-finalize', run);
