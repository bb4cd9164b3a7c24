import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  deadlineAt,
  type GenerationStatus,
  type ItemStatus,
  itemKey,
  type OrderItem,
  orderItems,
} from '../../domain/orders';
import { ddb, writeIf } from './aws';
import { updateCommand } from './item-update';
import type { OrderRecord } from './orders';
import { settings } from './settings';
import { newShareIds, putShares } from './shares';
import { updateStatus } from './status-update';

/**
 * Generations (the generations table): what a paid order makes, one item per (photo, style), moved by the order
 * pipeline through conditional updates, so a retried or re-run task never counts anything twice.
 */

export interface GenerationItem extends OrderItem {
  status: ItemStatus;
  /** Customer-facing reason when failed. */
  error?: string;
  /** Operator-facing detail behind a failure. */
  error_detail?: string;
  /** Set while the item waits for capacity (admission control, a throttled renderer, a misconfigured model). */
  queued_at?: string;
  /** Paid generative images of this item the quality gate failed so far (each try a new seed). */
  quality_tries?: number;
  /** When the item's image was stored at its output key and passed its checks (set before it is marked done). */
  rendered_at?: string;
  finished_at?: string;
}

export interface RefundInfo {
  /** Cents refunded so far in total. */
  amount: number;
  currency: string;
  /** Items the refunded amount covers. */
  items: number;
  refund_ids: string[];
  refunded_at: string;
}

export interface GenerationRecord {
  generation_id: string;
  order_id: string;
  email: string;
  status: GenerationStatus;
  items: Record<string, GenerationItem>;
  item_count: number;
  /** Atomic counters, moved only together with an item's pending → done/failed transition. */
  done_count: number;
  failed_count: number;
  total: number;
  currency: string;
  payment_intent: string;
  error?: string;
  refund?: RefundInfo;
  /** When the order e-mail went out (sent once: lambdas/lib/mail.ts), and SES's id for it. */
  email_sent_at?: string;
  email_message_id?: string;
  /** Set when the customer deleted their data (lambdas/lib/erasure.ts): e-mail gone, images deleted. */
  erased_at?: string;
  created_at: string;
  updated_at: string;
  finished_at?: string;
  /** Until when items may wait for capacity (lib/config.ts orderDeadlineMinutes from creation); then refunded. */
  deadline_at?: string;
  /** Photo hash → its share id (lambdas/lib/shares.ts); absent on generations from before share ids. */
  share_ids?: Record<string, string>;
}

/** A generation with its outcome, which the order e-mail tells. */
export type FinishedGeneration = GenerationRecord & { status: 'completed' | 'failed' };
export const isFinished = (g: GenerationRecord): g is FinishedGeneration =>
  g.status === 'completed' || g.status === 'failed';

const generations = () => settings.table('generations');

/**
 * Creates the generation of a paid order once: every (photo, style) pair pending, a share id per photo. False if it
 * already existed. Either way the share rows are written (a run that died between the two writes them now).
 */
export async function createGeneration(order: OrderRecord, paymentIntent: string): Promise<boolean> {
  const created = new Date();
  const now = created.toISOString();
  const items: Record<string, GenerationItem> = {};
  for (const item of orderItems(order.hashes, order.styles))
    items[itemKey(item.image_hash, item.style)] = { ...item, status: 'pending' };
  const record: GenerationRecord = {
    generation_id: order.order_id,
    order_id: order.order_id,
    email: order.email,
    status: 'pending',
    items,
    item_count: Object.keys(items).length,
    done_count: 0,
    failed_count: 0,
    total: order.total,
    currency: order.currency,
    payment_intent: paymentIntent,
    created_at: now,
    updated_at: now,
    deadline_at: deadlineAt(created, settings.orderDeadlineMinutes),
    share_ids: newShareIds(order.hashes),
  };
  const isNew = await writeIf(
    new PutCommand({
      TableName: generations(),
      Item: record,
      ConditionExpression: 'attribute_not_exists(generation_id)',
    }),
  );
  const stored = isNew ? record : await getGeneration(order.order_id);
  if (stored?.share_ids) await putShares(order.order_id, stored.share_ids);
  return isNew;
}

export async function getGeneration(id: string): Promise<GenerationRecord | null> {
  const res = await ddb().send(
    new GetCommand({ TableName: generations(), Key: { generation_id: id }, ConsistentRead: true }),
  );
  return (res.Item as GenerationRecord | undefined) ?? null;
}

/** pending → processing; later calls (a re-run) change nothing. */
export async function markGenerationProcessing(id: string): Promise<void> {
  await updateStatus({
    table: 'generations',
    id,
    status: 'processing',
    when: { from: 'pending' },
    stamp: ['updated_at'],
  });
}

/** Where an item lives in its generation's record. */
const itemPath = (item: OrderItem) => `items.${itemKey(item.image_hash, item.style)}`;

/**
 * Moves one item from pending to done or failed and counts it, in one conditional update: a retried or re-run
 * task finds the item no longer pending and changes nothing, so progress is never counted twice.
 */
export function finishItem(
  id: string,
  item: OrderItem,
  outcome: { status: 'done' } | { status: 'failed'; error: string; detail?: string },
): Promise<boolean> {
  const at = itemPath(item);
  const now = new Date().toISOString();
  const failure =
    outcome.status === 'failed'
      ? { [`${at}.error`]: outcome.error, [`${at}.error_detail`]: outcome.detail ?? outcome.error }
      : {};
  return writeIf(
    updateCommand('generations', id, {
      set: { [`${at}.status`]: outcome.status, [`${at}.finished_at`]: now, updated_at: now, ...failure },
      add: { [outcome.status === 'done' ? 'done_count' : 'failed_count']: 1 },
      condition: `{${at}.status} = :pending`,
      values: { ':pending': 'pending' },
    }),
  );
}

/** When a generation's items stop waiting: its stored deadline (records from before it: created + the setting). */
export function generationDeadline(g: Pick<GenerationRecord, 'created_at' | 'deadline_at'>): number {
  return Date.parse(g.deadline_at ?? deadlineAt(new Date(g.created_at), settings.orderDeadlineMinutes));
}

/** A pending item waits for capacity: the status page shows it queued. Once is enough (the first wait is kept). */
export async function markItemQueued(id: string, item: OrderItem): Promise<void> {
  const at = itemPath(item);
  const now = new Date().toISOString();
  await writeIf(
    updateCommand('generations', id, {
      set: { [`${at}.queued_at`]: now, updated_at: now },
      condition: `{${at}.status} = :pending AND attribute_not_exists({${at}.queued_at})`,
      values: { ':pending': 'pending' },
    }),
  );
}

/** Counts one quality-gate failure of a pending item; returns the count now (0 if the item is no longer pending). */
export async function countQualityTry(id: string, item: OrderItem): Promise<number> {
  const at = itemPath(item);
  try {
    const res = await ddb().send(
      updateCommand('generations', id, {
        set: { updated_at: new Date().toISOString() },
        add: { [`${at}.quality_tries`]: 1 },
        condition: `{${at}.status} = :pending`,
        values: { ':pending': 'pending' },
        returnValues: 'UPDATED_NEW',
      }),
    );
    return Number(
      (res.Attributes as { items?: Record<string, GenerationItem> })?.items?.[itemKey(item.image_hash, item.style)]
        ?.quality_tries ?? 0,
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return 0;
    throw err;
  }
}

/** An item's image is stored and checked: a re-run marks it done without rendering it again. */
export async function markItemRendered(id: string, item: OrderItem): Promise<void> {
  await ddb().send(
    updateCommand('generations', id, {
      set: { [`${itemPath(item)}.rendered_at`]: new Date().toISOString() },
      condition: 'attribute_exists(generation_id)',
    }),
  );
}

/** Records the refund total reached so far; never lowers it (a late or repeated call changes nothing). */
export async function recordRefund(id: string, refund: RefundInfo): Promise<void> {
  await writeIf(
    updateCommand('generations', id, {
      set: { refund, updated_at: new Date().toISOString() },
      condition: 'attribute_not_exists({refund}) OR {refund.amount} < :amount',
      values: { ':amount': refund.amount },
    }),
  );
}

/** Sets the final status once; a generation that already finished keeps its outcome. */
export async function finishGeneration(
  id: string,
  status: 'completed' | 'failed',
  error: string | null,
): Promise<void> {
  await updateStatus({
    table: 'generations',
    id,
    status,
    when: { notFrom: ['completed', 'failed'] },
    stamp: ['updated_at', 'finished_at'],
    ...(error ? { set: { error } } : { remove: ['error'] }),
  });
}

/** The order e-mail went out (lambdas/lib/mail.ts); a repeated call keeps the first time and message id. */
export async function markEmailSent(id: string, messageId: string): Promise<void> {
  await writeIf(
    updateCommand('generations', id, {
      setIfMissing: { email_sent_at: new Date().toISOString(), email_message_id: messageId },
      condition: 'attribute_exists(generation_id)',
    }),
  );
}
