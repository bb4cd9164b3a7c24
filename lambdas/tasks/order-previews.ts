import { logger } from '../lib/observability';
import { getGeneration } from '../lib/orders';
import { makePreviews } from '../lib/previews';
import { taskHandler } from '../lib/task';

export interface OrderPreviewsInput {
  order_id: string;
  prepared: { allowed: string[] };
}

/**
 * Order pipeline: watermarked previews of the ordered styles for each allowed photo that has none (the gallery and
 * thumbnails use them), through the same previews path as the style step. Paid for, so outside the free budget.
 * Best effort: previews are not what the customer paid for, so a failure is logged and the order goes on.
 */
async function run(input: OrderPreviewsInput) {
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  const made: Record<string, string[]> = {};
  for (const hash of input.prepared.allowed) {
    const styles = [
      ...new Set(
        Object.values(generation.items)
          .filter((i) => i.image_hash === hash)
          .map((i) => i.style),
      ),
    ];
    try {
      const res = await makePreviews(hash, { styles, onlyMissing: true, budget: false });
      if (res.styles.length) made[hash] = res.styles;
    } catch (err) {
      logger.warn('previews skipped', { image_hash: hash, error: err as Error });
    }
  }
  return { made };
}

export const handler = taskHandler('order-previews', run);
