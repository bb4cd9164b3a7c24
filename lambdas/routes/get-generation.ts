import { isServerId } from '../../domain/contract-shapes';
import { itemProgress } from '../../domain/orders';
import { getStyle } from '../../domain/styles';
import { deliveredImages } from '../lib/delivered';
import { getGeneration } from '../lib/generations';
import { httpHandler, notFound, pathParam, respond, respondGone } from '../lib/http';
import { receiptOf } from '../lib/receipt';

/**
 * GET /api/generation/{id} → {status, progress, error, images: [{url, styleName, styleId, imageHash, shareId}], items (each
 * (photo, style) with its state, `queued` while it waits for capacity), queued, receipt, refund?, failed?}.
 * `progress` and the page's "n of m images ready" come from the items (domain/orders.ts itemProgress).
 * Image URLs are presigned afresh on every call (they expire; the page polls), for delivered items only.
 * After the customer deleted the order's photos and images: 410 with when (the record stays, marked `erased_at`).
 */
export const handler = httpHandler(async (event) => {
  const id = pathParam(event, 'id');
  const generation = isServerId(id) ? await getGeneration(id) : null;
  if (!generation) throw notFound('Generation not found.');
  if (generation.erased_at) {
    return respondGone('get-generation', {
      detail: 'The photos and images of this order were deleted at your request.',
      erased_at: generation.erased_at,
    });
  }

  const items = Object.values(generation.items);
  const images = await deliveredImages(generation);
  const failed = items.filter((i) => i.status === 'failed');
  const states = items.map((i) => ({
    imageHash: i.image_hash,
    styleId: i.style,
    state: i.status === 'pending' && i.queued_at ? ('queued' as const) : i.status,
  }));
  const progress = itemProgress(states);
  return respond('get-generation', 200, {
    status: generation.status,
    progress: progress.percent,
    error: generation.error ?? null,
    images,
    items: states,
    queued: progress.queued,
    receipt: await receiptOf(generation),
    ...(generation.refund
      ? {
          refund: {
            amount: generation.refund.amount,
            currency: generation.refund.currency,
            items: generation.refund.items,
            refunded_at: generation.refund.refunded_at,
          },
        }
      : {}),
    ...(failed.length
      ? {
          failed: failed.map((i) => ({
            imageHash: i.image_hash,
            styleId: i.style,
            styleName: getStyle(i.style)?.name ?? i.style,
            error: i.error ?? null,
          })),
        }
      : {}),
  });
});
