import { pausePoint } from '../lib/fault-points';
import { getGeneration } from '../lib/generations';
import { sendOrderEmail } from '../lib/mail';
import { taskHandler } from '../lib/task';
import type { OrderInput } from './order-prepare';

/** Order pipeline, last step: the one e-mail with links to the results (or the refund, if nothing could be made). */
async function run(input: OrderInput) {
  await pausePoint('email:start');
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  return { email: await sendOrderEmail(generation) };
}

export const handler = taskHandler('order-email', run);
