import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CAPS, type CapName, type CapWindow, METRICS } from '../../domain/wiring';
import { ddb, writeIf } from './aws';
import { type HttpResult, json } from './http';
import { updateCommand } from './item-update';
import { logger, metrics } from './observability';
import { settings } from './settings';

/**
 * Global caps on what anonymous visitors can make the app pay for (domain/wiring.ts CAPS): each counted in a fixed
 * UTC hour and a fixed UTC day across all callers, one counter row per window in the counters table, taken with a
 * conditional increment (no read first, so concurrent callers can never overspend). Only anonymous work takes from
 * them: the order pipeline's moderation, previews and renders never call this.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WINDOW_MS: Record<CapWindow, number> = { hour: HOUR_MS, day: DAY_MS };
/** Checked day first: when the day is spent, "try again" means tomorrow, whatever the hour says. */
const CHECK_ORDER: readonly CapWindow[] = ['day', 'hour'];

/** A window's key: the UTC day `2026-11-23`, or the UTC hour `2026-11-23T14`. */
export function windowKey(window: CapWindow, at = Date.now()): string {
  const iso = new Date(at).toISOString();
  return window === 'day' ? iso.slice(0, 10) : iso.slice(0, 13);
}

/** Seconds from `at` to the start of the next window (at least 1): the Retry-After of a refusal. */
export function secondsToNextWindow(window: CapWindow, at = Date.now()): number {
  const size = WINDOW_MS[window];
  return Math.max(1, Math.ceil((Math.floor(at / size + 1) * size - at) / 1000));
}

/** Counter row of a cap's window, e.g. `generative-previews#2026-11-23` or `uploads#2026-11-23T14`. */
export const capCounterId = (cap: CapName, window: CapWindow, at = Date.now()) =>
  `${CAPS[cap].counter}#${windowKey(window, at)}`;

/** A cap's limit in a window, in counted units (settings, domain/config.ts). */
export function capLimit(cap: CapName, window: CapWindow): number {
  const def = CAPS[cap];
  const unit = 'unit' in def ? def.unit : 1;
  return settings[window === 'day' ? def.perDay : def.perHour] * unit;
}

/** Units taken from windows' counters, to give back exactly those (even once the window has moved on). */
export interface CapUnits {
  readonly rows: readonly { readonly id: string; readonly n: number }[];
}
export type CapTake = ({ ok: true } & CapUnits) | CapRefusal;
/** What refused a take: the cap and window that had no room, and when the next window opens. */
export interface CapRefusal {
  ok: false;
  cap: CapName;
  window: CapWindow;
  retryAfterSeconds: number;
}

/**
 * Takes `n` units of each cap named, in both windows, or none at all: when one window has no room, what this call
 * took is given back and the refusal says which cap and window, and when the next opens. Counted on the dashboard
 * (METRICS.capUse, METRICS.capRefusals, dimension `cap`).
 */
export async function takeCaps(wants: Partial<Record<CapName, number>>, at = Date.now()): Promise<CapTake> {
  const taken: { id: string; n: number }[] = [];
  for (const [cap, n] of Object.entries(wants) as [CapName, number][]) {
    if (!(n > 0)) continue;
    for (const window of CHECK_ORDER) {
      const id = capCounterId(cap, window, at);
      const limit = capLimit(cap, window);
      const took =
        n <= limit &&
        (await writeIf(
          updateCommand('counters', id, {
            add: { count: n },
            // Kept a day past its window's end, then the table's TTL removes it.
            setIfMissing: { expires_at: Math.floor((at + WINDOW_MS[window] + DAY_MS) / 1000) },
            condition: 'attribute_not_exists({count}) OR {count} <= :room',
            values: { ':room': limit - n },
          }),
        ));
      if (!took) {
        await giveBack({ rows: taken });
        capMetric(METRICS.capRefusals, cap, 1);
        logger.warn('global cap reached', { cap, window, limit });
        return { ok: false, cap, window, retryAfterSeconds: secondsToNextWindow(window, at) };
      }
      taken.push({ id, n });
    }
  }
  for (const [cap, n] of Object.entries(wants) as [CapName, number][]) if (n > 0) capMetric(METRICS.capUse, cap, n);
  return { ok: true, rows: taken };
}

/** One unit of one cap (a preview, a photo); see takeCaps. */
export const takeCap = (cap: CapName, at = Date.now()) => takeCaps({ [cap]: 1 }, at);

/**
 * Gives back units taken for work that was then not done (no capacity this minute, the model refused or failed):
 * the caps count what was made, not attempts. Each row never below zero.
 */
export async function giveBack(units: CapUnits): Promise<void> {
  for (const { id, n } of units.rows) {
    await writeIf(
      updateCommand('counters', id, { add: { count: -n }, condition: '{count} >= :n', values: { ':n': n } }),
    );
  }
}

/** Units of a cap used in the window that holds `at` (for operators and tests). */
export async function capUsed(cap: CapName, window: CapWindow, at = Date.now()): Promise<number> {
  const res = await ddb().send(
    new GetCommand({ TableName: settings.table('counters'), Key: { counter_id: capCounterId(cap, window, at) } }),
  );
  return Number(res.Item?.count ?? 0);
}

/** The words a visitor reads when a cap refuses a request: busy, and about when to come back. */
export function busyDetail(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const when = minutes <= 90 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(minutes / 60)} hours`;
  return `We're very busy right now. Please try again in ${when}.`;
}

/** The 429 answer of a refused request (never a 5xx): the detail the page shows, and Retry-After in seconds. */
export function busyAnswer(refusal: CapRefusal): HttpResult {
  return json(
    429,
    { detail: busyDetail(refusal.retryAfterSeconds) },
    { 'retry-after': String(refusal.retryAfterSeconds) },
  );
}

function capMetric(name: (typeof METRICS)['capUse' | 'capRefusals'], cap: CapName, value: number): void {
  const metric = metrics.singleMetric();
  metric.addDimension('cap', cap);
  metric.addMetric(name, MetricUnit.Count, value);
}
