import { ITEM_ERRORS } from '../../domain/orders';
import { finishItem, getGeneration, markGenerationProcessing } from '../lib/generations';
import { mapLimit, moderateImage } from '../lib/moderation';
import { taskHandler } from '../lib/task';

export interface OrderInput {
  order_id: string;
}
export interface WorkItem {
  order_id: string;
  image_hash: string;
  style: string;
}

/**
 * Order pipeline, first step: each paid photo's verdict is checked against the stored object it was made on (the
 * upload could have changed since checkout: then it is deleted and refused) and reused, or made now if there is
 * none; items of refused photos fail at once and are refunded later.
 * Returns the items still to generate, so a re-run after a restart skips everything already finished.
 */
async function run(input: OrderInput): Promise<{ allowed: string[]; items: WorkItem[] }> {
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  await markGenerationProcessing(input.order_id);
  const pending = Object.values(generation.items).filter((i) => i.status === 'pending');
  const hashes = [...new Set(pending.map((i) => i.image_hash))];
  const outcomes = await mapLimit(hashes, 4, moderateImage);
  const allowed = outcomes.filter((o) => o.moderation === 'allowed').map((o) => o.image_hash);
  for (const o of outcomes.filter((x) => x.moderation !== 'allowed')) {
    for (const item of pending.filter((i) => i.image_hash === o.image_hash)) {
      await finishItem(input.order_id, item, {
        status: 'failed',
        error: ITEM_ERRORS.refused,
        detail: `moderation ${o.moderation}: ${o.reasons.join('; ')}`,
      });
    }
  }
  return {
    allowed,
    items: pending
      .filter((i) => allowed.includes(i.image_hash))
      .map((i) => ({ order_id: input.order_id, image_hash: i.image_hash, style: i.style })),
  };
}

export const handler = taskHandler('order-prepare', run);
