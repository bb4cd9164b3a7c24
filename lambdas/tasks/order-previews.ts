import { getGeneration } from '../lib/generations';
import { makePreviews } from '../lib/previews';
import { taskHandler } from '../lib/task';

export interface OrderPreviewsInput {
  order_id: string;
  image_hash: string;
}

/**
 * Order pipeline, one iteration of the "Make previews" Map (one photo each, so a slow photo cannot hold up the
 * others or time out the order): watermarked previews of the ordered styles the photo has none of (the gallery and
 * thumbnails use them), through the same previews path as the style step. Paid for, so outside the free budget, but
 * with a preview's share of the renderers' capacity (lambdas/lib/capacity.ts): paid renders come first.
 * Best effort: previews are not what the customer paid for, so the Map's Catch skips a photo that failed.
 */
async function run(input: OrderPreviewsInput) {
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  const styles = [
    ...new Set(
      Object.values(generation.items)
        .filter((i) => i.image_hash === input.image_hash)
        .map((i) => i.style),
    ),
  ];
  const res = await makePreviews(input.image_hash, { styles, onlyMissing: true, budget: false });
  return { made: res.styles, paused: res.paused };
}

export const handler = taskHandler('order-previews', run);
