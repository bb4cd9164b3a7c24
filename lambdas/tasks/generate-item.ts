import { PAID_LONG_SIDE } from '../../domain/image-format';
import { ITEM_ERRORS, itemKey } from '../../domain/orders';
import { GENERATIVE_ERRORS, GENERATIVE_TRIES, METRICS, WAIT_FOR_CAPACITY } from '../../domain/wiring';
import { GenerativeError, seedFor } from '../lib/bedrock';
import { CapacityBusyError, withCapacity } from '../lib/capacity';
import { renderOnEngine } from '../lib/engine';
import { pausePoint } from '../lib/fault-points';
import {
  countQualityTry,
  finishItem,
  type GenerationItem,
  generationDeadline,
  getGeneration,
  markItemQueued,
  markItemRendered,
} from '../lib/generations';
import { checkGenerative, renderGenerative } from '../lib/generative';
import { getImage } from '../lib/images';
import { deleteObject, mediaKey, objectExists } from '../lib/media';
import { allowedUpload } from '../lib/moderation';
import { countMetric, logger } from '../lib/observability';
import { ENGINE_RENDERER, previewRenderer, type Renderer, rendererFor } from '../lib/renderer';
import { settings } from '../lib/settings';
import { makeShareCard } from '../lib/share-card';
import { taskHandler } from '../lib/task';
import { enlargeStored } from '../lib/upscale';
import type { WorkItem } from './order-prepare';

/**
 * One try of a paid generative image: the model's image is stored, enlarged to the paid size when smaller
 * (lambdas/lib/upscale.ts: the Bedrock upscale service if set, else lanczos3), then the engine's quality gate (engine/quality-gate.ts, faces included) checks it; it is delivered only if it passes.
 * The model call takes one of the model's requests and the check one of the engine's slots from admission control
 * (none left: CapacityBusyError, the item waits). An image stored but not checked yet (the engine was busy) is
 * checked on the next run, never asked of the model again. A failure deletes the image and is counted on the item:
 * with tries left it throws GenerativeQualityRetry (the pipeline's Retry runs the task again, which asks with the
 * next seed), else it returns the item's failure: the customer's reason (a lost face has its own) and the gate's.
 * One model call per invocation, so tries never add up past the task's timeout.
 */
async function renderGenerativeGated(
  input: WorkItem,
  item: GenerationItem,
  renderer: Extract<Renderer, { kind: 'bedrock' }>,
  holder: string,
  key: string,
): Promise<{ error: string; detail: string } | null> {
  const attempt = item.quality_tries ?? 0;
  const seed = seedFor(renderer.settings, input.image_hash, input.style, attempt);
  // Not delivered (the caller checked): an object here is this item's model image awaiting its check.
  if (!(await objectExists(key))) {
    const run = await withCapacity(renderer, holder, 'paid', () =>
      renderGenerative(input.image_hash, input.style, renderer.settings, {
        key,
        inputSize: renderer.settings.outputSize,
        size: PAID_LONG_SIDE,
        watermark: false,
        seed,
      }),
    );
    if (!run.admitted) throw new CapacityBusyError(`No ${renderer.id} capacity for ${input.style} now`);
  }
  // A smaller model image is enlarged before the check (no-op once it is full size): the gate sees what is delivered.
  await enlargeStored(key, input.style, renderer.settings);
  const check = await withCapacity(ENGINE_RENDERER, holder, 'paid', () =>
    checkGenerative(input.image_hash, input.style, key),
  );
  if (!check.admitted) throw new CapacityBusyError(`No engine capacity to check ${input.style} now`);
  if (check.value.ok) return null;
  const reason = check.value.reason ?? 'The image did not pass the quality check.';
  await deleteObject(key);
  const tries = await countQualityTry(input.order_id, input);
  logger.warn('quality gate failed', {
    order_id: input.order_id,
    style: input.style,
    attempt,
    seed,
    tries,
    check: check.value.check,
    reason,
  });
  if (tries < GENERATIVE_TRIES) throw new GenerativeError(reason, GENERATIVE_ERRORS.qualityRetry);
  const error = check.value.check === 'faces' ? ITEM_ERRORS.faces : ITEM_ERRORS.quality;
  return { error, detail: `${reason} (${GENERATIVE_TRIES} tries)` };
}

/**
 * Order pipeline, one Map iteration: renders one (photo, style) with the style's renderer (lambdas/lib/renderer.ts)
 * and records it, once admission control (lambdas/lib/capacity.ts) lets it run. Errors are thrown by name for the
 * state's Retry and Catch: no capacity, a throttled renderer or a model the account may not call
 * (GenerativeMisconfigured, until an operator fixes it) are waited out (the item shows queued) until the order's
 * deadline, when the item fails; engine and Bedrock service errors get a few quick
 * retries; content filtered, input refused or a renderer other than the preview's fail the item at once (it is
 * refunded when the order finishes).
 * Idempotent: an item no longer pending is skipped, and an output already rendered and recorded is not rendered again.
 * Each order has its own images (outputs/<order>/...): another order of the same photo never reuses or sees them.
 */
async function run(input: WorkItem) {
  const generation = await getGeneration(input.order_id);
  const item = generation?.items[itemKey(input.image_hash, input.style)];
  if (!item) throw new Error(`Item ${input.image_hash}:${input.style} is not part of order ${input.order_id}`);
  if (item.status !== 'pending') return { skipped: item.status };

  const key = mediaKey.output(input.order_id, input.image_hash, input.style);
  const image = await getImage(input.image_hash);
  let rendered = false;
  if (!(item.rendered_at && (await objectExists(key)))) {
    // The photo must still be the object its verdict was made on; bytes written since are never rendered.
    const use = await allowedUpload(input.image_hash);
    if (!use.ok) {
      await finishItem(input.order_id, input, { status: 'failed', error: ITEM_ERRORS.refused, detail: use.reason });
      return { refused: use.reason };
    }
    const renderer = rendererFor(input.style);
    // The refund policy names "output significantly different from preview": never silently switch renderers.
    const previewBy = previewRenderer(image, input.style);
    if (previewBy !== null && previewBy !== renderer.id) {
      throw new GenerativeError(
        `The preview of ${input.style} was made by ${previewBy}, the style is now rendered by ${renderer.id}`,
        GENERATIVE_ERRORS.rendererChanged,
      );
    }
    // The engine's paid render; a generative one is run per try below.
    const renderEngine = async () => {
      const bucket = settings.mediaBucket;
      await renderOnEngine({
        input: { bucket, key: mediaKey.upload(input.image_hash) },
        kind: 'image',
        size: PAID_LONG_SIDE,
        watermark: false,
        outputs: [{ style: input.style, bucket, key }],
      });
    };
    // Waiting (no capacity, throttled, misconfigured) lasts until the order's deadline; then the item is refunded.
    const waitOrGiveUp = async (reason: string) => {
      if (Date.now() < generationDeadline(generation!)) {
        await markItemQueued(input.order_id, input);
        return null;
      }
      await finishItem(input.order_id, input, { status: 'failed', error: ITEM_ERRORS.deadline, detail: reason });
      return { deadline: reason };
    };
    const holder = `${input.order_id}:${itemKey(input.image_hash, input.style)}`;
    try {
      if (renderer.kind === 'bedrock') {
        const failed = await renderGenerativeGated(input, item, renderer, holder, key);
        if (failed) {
          await finishItem(input.order_id, input, { status: 'failed', ...failed });
          return { quality: failed.detail };
        }
      } else {
        const run = await withCapacity(renderer, holder, 'paid', renderEngine);
        if (!run.admitted) throw new CapacityBusyError(`No ${renderer.id} capacity for ${input.style} now`);
      }
    } catch (err) {
      if (WAIT_FOR_CAPACITY.includes((err as Error).name)) {
        const gaveUp = await waitOrGiveUp(`${(err as Error).name}: ${(err as Error).message}`);
        if (gaveUp) return gaveUp;
      }
      throw err;
    }
    await pausePoint('item:rendered');
    await markItemRendered(input.order_id, input);
    rendered = true;
  }
  // The share link's picture, made once per delivered image (again on a re-run: the same bytes).
  const shareId = generation?.share_ids?.[input.image_hash];
  if (shareId) await makeShareCard(key, shareId, input.style);
  await finishItem(input.order_id, input, { status: 'done' });
  countMetric(METRICS.imagesDelivered);
  return { rendered };
}

export const handler = taskHandler('generate-item', run);
