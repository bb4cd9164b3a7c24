import { ITEM_ERRORS } from '../../domain/orders';
import { finishItem } from '../lib/generations';
import { logger } from '../lib/observability';
import { taskHandler } from '../lib/task';
import { describeFailure, type JobFailedInput } from './job-failed';
import type { WorkItem } from './order-prepare';

/** Order pipeline, Map iteration Catch: the item ends failed with its reason (refunded when the order finishes). */
async function run(input: WorkItem & { error?: JobFailedInput['error'] }) {
  const detail = `${input.error?.Error ?? 'Error'}: ${describeFailure(input.error)}`;
  logger.error('item failed', { detail });
  return { recorded: await finishItem(input.order_id, input, { status: 'failed', error: ITEM_ERRORS.render, detail }) };
}

export const handler = taskHandler('item-failed', run);
