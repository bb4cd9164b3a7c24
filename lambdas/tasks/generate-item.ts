import { itemKey } from '../../domain/orders';
import { renderOnEngine } from '../lib/engine';
import { getImage } from '../lib/images';
import { mediaKey, objectExists } from '../lib/media';
import { finishItem, getGeneration } from '../lib/orders';
import { deliveredStyles, recordOutput } from '../lib/outputs';
import { settings } from '../lib/settings';
import type { WorkItem } from './order-prepare';

/** The paid render: full resolution, no watermark. */
const OUTPUT_SIZE = 2048;

/**
 * Order pipeline, one Map iteration: renders one (photo, style) on the engine and records it. Engine errors are
 * thrown by name (EngineThrottled, EngineModelError, EngineUnavailable) for the state's Retry and Catch.
 * Idempotent: an item no longer pending is skipped, and an output already rendered and recorded is not rendered again.
 */
export async function handler(input: WorkItem) {
  const generation = await getGeneration(input.order_id);
  const item = generation?.items[itemKey(input.image_hash, input.style)];
  if (!item) throw new Error(`Item ${input.image_hash}:${input.style} is not part of order ${input.order_id}`);
  if (item.status !== 'pending') return { skipped: item.status };

  const key = mediaKey.output(input.image_hash, input.style);
  let rendered = false;
  if (!(deliveredStyles(await getImage(input.image_hash)).has(input.style) && (await objectExists(key)))) {
    const bucket = settings.mediaBucket;
    await renderOnEngine({
      input: { bucket, key: mediaKey.upload(input.image_hash) },
      kind: 'image',
      size: OUTPUT_SIZE,
      watermark: false,
      outputs: [{ style: input.style, bucket, key }],
    });
    await recordOutput(input.image_hash, input.style);
    rendered = true;
  }
  await finishItem(input.order_id, input, { status: 'done' });
  return { rendered };
}
