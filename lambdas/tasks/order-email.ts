import { sendOrderEmail } from '../lib/mail';
import { getGeneration } from '../lib/orders';
import type { OrderInput } from './order-prepare';

/** Order pipeline, last step: the one e-mail with links to the results (or the refund, if nothing could be made). */
export async function handler(input: OrderInput) {
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  return { email: await sendOrderEmail(generation) };
}
