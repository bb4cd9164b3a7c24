import { contract } from '../../domain/contract';
import { isServerId } from '../../domain/contract-shapes';
import { eraseOrder } from '../lib/erasure';
import { getGeneration } from '../lib/generations';
import { HttpError, httpHandler, notFound, parseWith, pathParam, respond } from '../lib/http';
import { getOrder } from '../lib/orders';

/**
 * POST /api/generation/{id}/delete → what was deleted. The id is the order's (its status page's) capability: whoever
 * holds the link may see the order's images, and may delete the order's own data; never a photo, preview or sign-up
 * another order or owner still holds (lambdas/lib/erasure.ts says what goes and what stays).
 * Refused (409) while the images are still being made, so the pipeline never writes into a deleted order.
 */
export const handler = httpHandler(async (event) => {
  const { id } = parseWith(contract['delete-order-data'].params, { id: pathParam(event, 'id') });
  const order = isServerId(id) ? await getOrder(id) : null;
  if (!order) throw notFound('Order not found.');
  // Erased already: nothing left to do or to read.
  if (order.erased_at) return respond('delete-order-data', 200, { deleted: await eraseOrder(order) });
  if (order.status === 'created' && order.session_expires_at > Date.now() / 1000) {
    throw new HttpError(
      409,
      'This order is waiting for payment. Cancel the payment first, or try again once it has expired.',
    );
  }
  const generation = await getGeneration(id);
  if (generation && generation.status !== 'completed' && generation.status !== 'failed' && !generation.erased_at) {
    throw new HttpError(409, 'Your images are still being made. You can delete them once they are ready.');
  }
  const report = await eraseOrder(order);
  return respond('delete-order-data', 200, { deleted: report });
});
