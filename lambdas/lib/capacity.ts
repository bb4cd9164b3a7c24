import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CAPACITY_BUSY } from '../../domain/wiring';
import { ddb, writeIf } from './aws';
import { updateCommand } from './item-update';
import type { Renderer } from './renderer';
import { settings } from './settings';

/**
 * Admission control per renderer, durable in the counters table, as AWS's published pattern "Control concurrency in
 * Step Functions with a DynamoDB semaphore": a conditional UpdateItem on one row per renderer takes a slot only while
 * fewer than the limit are held; the holder's id and when it took the slot are stored in the row, so a holder that
 * crashed (Lambda timeout, a lost process) is found stale and its slot given back. The render releases its slot when
 * it ends, whether it succeeded or failed. A model's requests per minute are counted the same way, per minute.
 *
 * Paid work may use the whole limit; previews only what paid work leaves (the limit less a reserve of half, rounded
 * down), so a busy evening's previews can never keep a paid item waiting for long.
 * Conditional UpdateItem only: dynalite (the local DynamoDB) has no Transact* calls.
 */

export type Priority = 'paid' | 'preview';

/** A holder older than this crashed: every render holds its slot for one task run (at most 125 s: lib/order-pipeline.ts). */
export const LEASE_MS = 5 * 60_000;

/** What a priority may use of a limit: paid work all of it; previews what paid work's reserve leaves (at least 1). */
export const shareOf = (limit: number, priority: Priority) =>
  priority === 'paid' ? limit : Math.max(1, limit - Math.floor(limit / 2));

const counters = () => settings.table('counters');

export const semaphoreId = (renderer: string) => `semaphore#${renderer}`;

interface SemaphoreRow {
  count?: number;
  holders?: Record<string, number>;
}

/**
 * Takes one of `limit` slots of a renderer for `holder` (idempotent: a holder that has a slot keeps it). False when
 * every slot the priority may use is held by live holders: the caller waits and tries again.
 */
export async function acquireSlot(
  renderer: string,
  holder: string,
  limit: number,
  priority: Priority,
  now = Date.now(),
): Promise<boolean> {
  const id = semaphoreId(renderer);
  // The row must exist with an empty holder map before a holder can be set in it.
  await writeIf(
    new PutCommand({
      TableName: counters(),
      Item: { counter_id: id, count: 0, holders: {} },
      ConditionExpression: 'attribute_not_exists(counter_id)',
    }),
  );
  const slot = `holders.${holder}`;
  const take = () =>
    writeIf(
      updateCommand('counters', id, {
        set: { [slot]: now },
        add: { count: 1 },
        condition: `{count} < :share AND attribute_not_exists({${slot}})`,
        values: { ':share': shareOf(limit, priority) },
      }),
    );
  if (await take()) return true;
  const row = (
    await ddb().send(new GetCommand({ TableName: counters(), Key: { counter_id: id }, ConsistentRead: true }))
  ).Item as SemaphoreRow | undefined;
  const holders = row?.holders ?? {};
  if (holder in holders) return true; // a retry of the run that took it
  const stale = Object.entries(holders).filter(([, since]) => now - since > LEASE_MS);
  for (const [id, since] of stale) await releaseSlot(renderer, id, since);
  return stale.length > 0 && take();
}

/**
 * Gives `holder`'s slot back (if it still has one; when `since` is given, only the lease taken then, so a stale
 * cleanup never frees a slot its holder took again meanwhile). Safe to call twice.
 */
export async function releaseSlot(renderer: string, holder: string, since?: number): Promise<void> {
  const slot = `holders.${holder}`;
  await writeIf(
    updateCommand('counters', semaphoreId(renderer), {
      remove: [slot],
      add: { count: -1 },
      condition: since === undefined ? `attribute_exists({${slot}})` : `{${slot}} = :since`,
      values: since === undefined ? {} : { ':since': since },
    }),
  );
}

/** Slots of a renderer held now (operators and tests). */
export async function slotsHeld(renderer: string): Promise<number> {
  const res = await ddb().send(
    new GetCommand({ TableName: counters(), Key: { counter_id: semaphoreId(renderer) }, ConsistentRead: true }),
  );
  return Number((res.Item as SemaphoreRow | undefined)?.count ?? 0);
}

export const minuteWindowId = (model: string, now = Date.now()) => `rpm#${model}#${Math.floor(now / 60_000)}`;

/**
 * Counts one request to `model` against its quota of `limit` a minute, as a sliding window counter: this minute's
 * counter row (one atomic conditional increment) plus the share of the previous minute's count that still lies in the
 * last 60 s (AWS counts requests per minute on a sliding window, so a fixed window would let twice the limit through
 * around each full minute). False when the priority's share is spent: the caller waits instead of calling.
 */
export async function takeModelRequest(model: string, limit: number, priority: Priority, now = Date.now()) {
  const previous = await ddb().send(
    new GetCommand({ TableName: counters(), Key: { counter_id: minuteWindowId(model, now - 60_000) } }),
  );
  const elapsed = (now % 60_000) / 60_000;
  const carried = Math.ceil(Number(previous.Item?.count ?? 0) * (1 - elapsed));
  const share = shareOf(limit, priority) - carried;
  if (share <= 0) return false;
  return writeIf(
    updateCommand('counters', minuteWindowId(model, now), {
      add: { count: 1 },
      // Read for two minutes only: the table's TTL removes it after a day.
      setIfMissing: { expires_at: Math.floor(now / 1000) + 86400 },
      condition: 'attribute_not_exists({count}) OR {count} < :share',
      values: { ':share': share },
    }),
  );
}

/** The engine's slots: its serverless endpoint's MaxConcurrency (lib/config.ts engineMaxConcurrency). */
export const ENGINE = 'engine';

/** Thrown (by name, for the state machine's Retry) when a paid item finds no capacity: it waits and tries again. */
export class CapacityBusyError extends Error {
  override name = CAPACITY_BUSY;
}

/**
 * Runs `render` on `renderer` once admission control lets it: an engine render holds one of the endpoint's slots
 * while it runs (given back however it ends), a model call takes one of the minute's requests. Returns
 * `{ admitted: false }` without rendering when there is no capacity for this priority now.
 */
export async function withCapacity<T>(
  renderer: Renderer,
  holder: string,
  priority: Priority,
  render: () => Promise<T>,
): Promise<{ admitted: true; value: T } | { admitted: false }> {
  if (renderer.kind === 'bedrock') return withModelRequest(renderer.settings.modelId, priority, render);
  if (!(await acquireSlot(ENGINE, holder, settings.engineMaxConcurrency, priority))) return { admitted: false };
  try {
    return { admitted: true, value: await render() };
  } finally {
    await releaseSlot(ENGINE, holder);
  }
}

/** Runs `call` once one of `model`'s requests this minute is taken (bedrockRequestsPerMinute); none left: not admitted. */
export async function withModelRequest<T>(
  model: string,
  priority: Priority,
  call: () => Promise<T>,
): Promise<{ admitted: true; value: T } | { admitted: false }> {
  if (!(await takeModelRequest(model, settings.bedrockRequestsPerMinute, priority))) return { admitted: false };
  return { admitted: true, value: await call() };
}
