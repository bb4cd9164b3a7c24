import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AddressErasureReport } from '../../domain/contract';
import { emailKey } from '../../domain/email';
import { renderErasureEmail } from '../../domain/erasure-email';
import { TABLE_INDEXES, type TableName } from '../../domain/wiring';
import { ddb, writeIf } from './aws';
import { eraseOrder } from './erasure';
import { getGeneration } from './generations';
import { updateCommand } from './item-update';
import { sendMail } from './mail';
import { logger } from './observability';
import { getOrder } from './orders';
import { settings } from './settings';

/**
 * Erasing everything tied to an e-mail address: the address must confirm it. A request sends a one-time link to the
 * address (never more than one every LINK_INTERVAL_SECONDS per address, so nobody can make us mail someone a link a
 * second); the link's token, stored as its SHA-256, opens the erasure once within LINK_VALID_HOURS. Confirmed: every
 * order with the address is erased as its own status link would (lambdas/lib/erasure.ts) and every launch sign-up
 * with it is deleted, found through the tables' by-email indexes.
 */
export const LINK_VALID_HOURS = 24;
export const LINK_INTERVAL_SECONDS = 10 * 60;

const table = () => settings.table('erasures');
const tokenId = (token: string) => `token#${createHash('sha256').update(token).digest('hex')}`;

/** Sends the confirmation link, unless one went to the address within the interval. Says nothing either way. */
export async function requestErasure(email: string): Promise<void> {
  const address = emailKey(email);
  const now = Math.floor(Date.now() / 1000);
  const due = await writeIf(
    updateCommand('erasures', `address#${address}`, {
      set: { sent_at: now, expires_at: now + LINK_INTERVAL_SECONDS },
      condition: 'attribute_not_exists(sent_at) OR sent_at < :due',
      values: { ':due': now - LINK_INTERVAL_SECONDS },
    }),
  );
  if (!due) {
    logger.info('erasure link not sent again so soon');
    return;
  }
  const token = randomBytes(16).toString('base64url');
  await writeIf(
    updateCommand('erasures', tokenId(token), {
      set: { email: address, expires_at: now + LINK_VALID_HOURS * 3600 },
      condition: 'attribute_not_exists(erasure_id)',
    }),
  );
  const message = renderErasureEmail({
    brand: settings.brandName,
    siteUrl: settings.siteUrl,
    supportEmail: settings.supportEmail,
    token,
    validHours: LINK_VALID_HOURS,
  });
  try {
    await sendMail(address, message, ['erasure', 'request']);
  } catch (err) {
    // Not sent: the visitor is told to try again, so this request's turn is given back (not a newer one's).
    await writeIf(
      updateCommand('erasures', `address#${address}`, {
        remove: ['sent_at'],
        condition: 'sent_at = :sent',
        values: { ':sent': now },
      }),
    );
    throw err;
  }
}

/** Every item of a table whose by-email index holds the address. */
async function byEmail(name: TableName, address: string): Promise<Record<string, unknown>[]> {
  const index = TABLE_INDEXES[name]!;
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new QueryCommand({
        TableName: settings.table(name),
        IndexName: index.name,
        KeyConditionExpression: '#k = :a',
        ExpressionAttributeNames: { '#k': index.key },
        ExpressionAttributeValues: { ':a': address },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((res.Items ?? []) as Record<string, unknown>[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The address a live token opens, or null (unknown, used or expired: all the same to the caller). */
async function tokenAddress(token: string): Promise<string | null> {
  const res = await ddb().send(
    new GetCommand({ TableName: table(), Key: { erasure_id: tokenId(token) }, ConsistentRead: true }),
  );
  const item = res.Item as { email?: string; expires_at?: number } | undefined;
  return item?.email && (item.expires_at ?? 0) > Date.now() / 1000 ? item.email : null;
}

export async function confirmErasure(token: string): Promise<AddressErasureReport | null> {
  const address = await tokenAddress(token);
  if (!address) return null;
  const report: AddressErasureReport = {
    orders_erased: 0,
    orders_in_progress: 0,
    photos_deleted: 0,
    files_deleted: 0,
    signups_deleted: 0,
  };
  for (const { order_id } of await byEmail('orders', address)) {
    const order = await getOrder(String(order_id));
    if (!order || order.erased_at) continue;
    // Images still being made (or a payment still open) are not erased under the pipeline: the link says so, and
    // the order's own status link can delete them once ready.
    const generation = await getGeneration(order.order_id);
    const busy =
      (order.status === 'created' && order.session_expires_at > Date.now() / 1000) ||
      (generation && generation.status !== 'completed' && generation.status !== 'failed');
    if (busy) {
      report.orders_in_progress++;
      continue;
    }
    const erased = await eraseOrder(order);
    report.orders_erased++;
    report.photos_deleted += erased.photos_deleted;
    report.files_deleted += erased.files_deleted;
  }
  for (const { signup_id } of await byEmail('signups', address)) {
    await ddb().send(new DeleteCommand({ TableName: settings.table('signups'), Key: { signup_id } }));
    report.signups_deleted++;
  }
  // Used once, unless something is still in progress: then the same link finishes the job later.
  if (!report.orders_in_progress) {
    await ddb().send(new DeleteCommand({ TableName: table(), Key: { erasure_id: tokenId(token) } }));
  }
  return report;
}
