import { PREVIEW_LONG_SIDE } from '../../domain/image-format';
import { STYLE_IDS } from '../../domain/styles';
import { GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { seedFor } from './bedrock';
import { CapacityBusyError, withCapacity } from './capacity';
import { type CapRefusal, type CapUnits, giveBack, takeCap } from './caps';
import { renderOnEngine } from './engine';
import { renderGenerative } from './generative';
import { recordPreviews } from './images';
import { mediaKey } from './media';
import { allowedUpload, mapLimit } from './moderation';
import { countMetric, logger } from './observability';
import { budgetDay, pendingPreviews, previewRenderer, rendererFor } from './renderer';
import { settings } from './settings';

export class NotAllowedError extends Error {
  override name = 'NotAllowed';
}

/** A global cap (lambdas/lib/caps.ts) has no room for this preview: its tile keeps the static sample. */
export class CapReachedError extends Error {
  override name = 'CapReached';
  constructor(readonly refusal: CapRefusal) {
    super(`The ${refusal.cap} cap of this ${refusal.window} is reached`);
  }
}

/** Long side of every preview; a generative model is sent the photo at its style's `previewSize` and shrunk to this. */
const PREVIEW_SIZE = PREVIEW_LONG_SIDE;

/**
 * How long a previews job waits for model capacity (a busy minute) before it shows the sample and says so. Well
 * inside the jobs machine's CapacityBusy Retry (20 attempts, full jitter up to 30 s: about 4 minutes on average,
 * lib/pipelines.ts) and a minute's window (lambdas/lib/capacity.ts), so a busy minute is waited out.
 */
export const PREVIEW_CAPACITY_WAIT_MS = 2 * 60_000;

export interface PreviewOptions {
  /** Styles wanted (default: the whole catalogue). */
  styles?: readonly string[];
  /**
   * Order pipeline: only styles with no preview at all. A preview the customer already saw is never replaced,
   * so generate-item can tell whether the paid render comes from the same renderer.
   */
  onlyMissing?: boolean;
  /**
   * Free previews take from the global caps (lambdas/lib/caps.ts: engine preview renders, generative previews, per
   * hour and per day); previews for a paid order do not.
   */
  budget: boolean;
  /**
   * Until when (epoch ms) a generative style that finds no model capacity makes the run throw CapacityBusy, so the
   * jobs machine retries it with jitter; after it (or without it) the style is recorded busy and the run ends.
   */
  waitForCapacityUntil?: number;
}

/**
 * Watermarked previews of one allowed photo, each from the renderer its style is rendered with (lambdas/lib/renderer.ts):
 * every engine style in one engine call, each generative style with one model call. Made once per (photo, style,
 * renderer) and reused. Free previews take a unit of their cap first (the engine's: one per engine call; a
 * model's: one per style): past the day's cap the styles are recorded paused for the day, past the hour's busy
 * (asked again on the next request); either way the tile shows the static sample. One that finds its model's minute
 * taken by paid renders gives its unit back and waits (CapacityBusy, retried by the jobs machine) until
 * `waitForCapacityUntil`, then is recorded busy: asked again on the next request, never paused for the day. A
 * generative call that the model refuses or that fails gives its unit back and leaves that style without a preview;
 * the others are kept.
 */
export async function makePreviews(hash: string, opts: PreviewOptions) {
  const started = Date.now();
  // Allowed, and still the very object that was judged: otherwise nothing is rendered.
  const use = await allowedUpload(hash);
  if (!use.ok) throw new NotAllowedError(`Image ${hash.slice(0, 12)}: ${use.reason}`);
  const image = use.record;
  const day = budgetDay();
  const wanted = opts.styles ?? STYLE_IDS;
  const todo = opts.onlyMissing
    ? wanted.filter((s) => previewRenderer(image, s) === null)
    : pendingPreviews(image, wanted, day);
  const made: Record<string, string> = {};
  const paused: string[] = [];
  const busy: string[] = [];
  // Past an hour's cap: shown busy at once (waiting for capacity would not help).
  const capped: string[] = [];
  const refused: Record<string, string> = {};
  const engineStyles = todo.filter(isEngineStyle);
  const generative = todo.filter((s) => rendererFor(s).kind === 'bedrock');
  const pastCap = (refusal: CapRefusal, styles: readonly string[]) =>
    (refusal.window === 'day' ? paused : capped).push(...styles);
  // Previews get what paid renders leave of each renderer (lambdas/lib/capacity.ts). The engine's previews wait
  // (CapacityBusy: the jobs machine retries); so do a model's, for a bounded time (`waitForCapacityUntil`).
  const holder = `preview:${hash}:${crypto.randomUUID()}`;
  const engineCall = engineStyles.length
    ? renderEnginePreviews(hash, engineStyles, holder, opts.budget).catch((err) => {
        if (!(err instanceof CapReachedError)) throw err;
        pastCap(err.refusal, engineStyles);
        return [];
      })
    : null;
  const generativeCalls = mapLimit(generative, 2, async (style) => {
    const r = rendererFor(style);
    if (r.kind !== 'bedrock') return;
    let unit: CapUnits | null = null;
    if (opts.budget) {
      const take = await takeCap('generativePreviews');
      if (!take.ok) return pastCap(take, [style]);
      unit = take;
    }
    try {
      const run = await withCapacity(r, holder, 'preview', () =>
        renderGenerative(hash, style, r.settings, {
          key: mediaKey.preview(hash, style),
          inputSize: r.settings.previewSize,
          size: PREVIEW_SIZE,
          watermark: true,
          seed: seedFor(r.settings, hash, style),
        }),
      );
      if (run.admitted) made[style] = r.id;
      else {
        busy.push(style);
        if (unit) await giveBack(unit);
      }
    } catch (err) {
      // Not made: the unit comes back (the caps count previews, not attempts).
      if (unit) await giveBack(unit);
      // A refusal is final for this photo and model: remembered, so later visits do not pay for it again.
      if ((err as Error).name === GENERATIVE_ERRORS.refused) refused[style] = r.id;
      logger.warn('generative preview not made', { image_hash: hash, style, error: err as Error });
    }
  });
  // Settled, not all: what one renderer made is recorded (the model calls are paid for) even if the other failed.
  const [engineRes, generativeRes] = await Promise.allSettled([engineCall, generativeCalls]);
  if (engineRes.status === 'fulfilled') for (const style of engineRes.value ?? []) made[style] = 'engine';
  countMetric(METRICS.previewsMade, Object.keys(made).length);
  const waitMore = busy.length > 0 && Date.now() < (opts.waitForCapacityUntil ?? 0);
  if (Object.keys(made).length || paused.length || Object.keys(refused).length || busy.length || capped.length) {
    await recordPreviews(hash, {
      made,
      paused: paused.length ? { day, styles: paused } : undefined,
      refused,
      // While the run will be retried the styles are still in progress, not busy for the page.
      busy: [...(waitMore ? [] : busy), ...capped],
    });
  }
  if (engineRes.status === 'rejected') throw engineRes.reason;
  if (generativeRes.status === 'rejected') throw generativeRes.reason;
  if (waitMore) throw new CapacityBusyError(`No model capacity for previews of ${busy.join(', ')} now`);
  return { image_hash: hash, styles: Object.keys(made), paused, busy: [...busy, ...capped], ms: Date.now() - started };
}

/** Whether a style's previews come from the engine (one batch call for all of them) rather than a model. */
export function isEngineStyle(style: string): boolean {
  return rendererFor(style).kind === 'engine';
}

/**
 * One engine call that renders the watermarked previews of `styles` into their preview keys, within the engine's
 * capacity for previews (CapacityBusy when paid renders hold it all). Free previews (`budget`, the default: the
 * style step's, lambdas/lib/early-previews.ts) take a unit of the engine previews cap first (CapReached when it has
 * no room) and give it back when the call is not made or fails. Resolves to the styles written. Nothing is
 * recorded: the caller records them once the photo is allowed (makePreviews, lambdas/lib/early-previews.ts).
 */
export async function renderEnginePreviews(
  hash: string,
  styles: readonly string[],
  holder = `preview:${hash}:${crypto.randomUUID()}`,
  budget = true,
): Promise<string[]> {
  let unit: CapUnits | null = null;
  if (budget) {
    const take = await takeCap('enginePreviews');
    if (!take.ok) throw new CapReachedError(take);
    unit = take;
  }
  const bucket = settings.mediaBucket;
  try {
    const run = await withCapacity(rendererFor(styles[0]), holder, 'preview', () =>
      renderOnEngine({
        input: { bucket, key: mediaKey.upload(hash) },
        kind: 'thumbnail',
        size: PREVIEW_SIZE,
        watermark: true,
        outputs: styles.map((style) => ({ style, bucket, key: mediaKey.preview(hash, style) })),
      }),
    );
    if (!run.admitted) throw new CapacityBusyError('No engine capacity for previews now');
    return run.value.outputs.map((o) => o.style);
  } catch (err) {
    if (unit) await giveBack(unit);
    throw err;
  }
}
