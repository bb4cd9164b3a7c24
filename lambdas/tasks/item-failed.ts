import { ITEM_ERRORS } from '../../domain/orders';
import { finishItem } from '../lib/orders';
import { describeFailure, type JobFailedInput } from './job-failed';
import type { WorkItem } from './order-prepare';

/** Order pipeline, Map iteration Catch: the item ends failed with its reason (refunded when the order finishes). */
export async function handler(input: WorkItem & { error?: JobFailedInput['error'] }) {
  const detail = `${input.error?.Error ?? 'Error'}: ${describeFailure(input.error)}`;
  console.error(JSON.stringify({ level: 'error', order_id: input.order_id, image_hash: input.image_hash, style: input.style, detail }));
  return { recorded: await finishItem(input.order_id, input, { status: 'failed', error: ITEM_ERRORS.render, detail }) };
}
