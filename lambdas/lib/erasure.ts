import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ErasureReport } from '../../domain/contract';
import { MEDIA_PREFIX, mediaKey, TABLES } from '../../domain/wiring';
import { ddb, s3, writeIf } from './aws';
import { updateCommand } from './item-update';
import type { OrderRecord } from './orders';
import { settings } from './settings';

/**
 * The customer's right to be forgotten for one order (POST /api/generation/{id}/delete): the photos' uploads,
 * previews and generated images and their records go, unless another paid order still holds the same photo; the
 * e-mail address leaves the order and generation records, and every launch sign-up with that address goes too.
 * Kept: what accounting needs (amounts, currency, dates, Stripe ids, item counts).
 */

async function scanAll(input: ScanCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(new ScanCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((res.Items ?? []) as Record<string, unknown>[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Paid orders other than `orderId` that hold the photo. A scan: erasure is rare, and orders are not indexed by photo.
 * Orders whose customer already erased their data, or that were refunded, do not hold anything any more.
 */
async function heldElsewhere(hash: string, orderId: string): Promise<boolean> {
  const found = await scanAll({
    TableName: settings.table('orders'),
    ProjectionExpression: 'order_id',
    FilterExpression:
      'contains(hashes, :h) AND attribute_exists(paid_at) AND attribute_not_exists(erased_at) AND order_id <> :o AND #s <> :refunded',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':h': hash, ':o': orderId, ':refunded': 'refunded' },
  });
  return found.length > 0;
}

async function deletePrefix(prefix: string): Promise<number> {
  let deleted = 0;
  let token: string | undefined;
  do {
    const list = await s3().send(
      new ListObjectsV2Command({ Bucket: settings.mediaBucket, Prefix: prefix, ContinuationToken: token }),
    );
    const keys = (list.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length) {
      await s3().send(
        new DeleteObjectsCommand({ Bucket: settings.mediaBucket, Delete: { Objects: keys, Quiet: true } }),
      );
      deleted += keys.length;
    }
    token = list.IsTruncated ? list.NextContinuationToken : undefined;
  } while (token);
  return deleted;
}

/** Every stored file of one photo: the upload, its previews, its generated images and the engine's analysis of it. */
async function deletePhotoFiles(hash: string): Promise<number> {
  const counts = await Promise.all([
    deletePrefix(mediaKey.upload(hash)),
    deletePrefix(`${MEDIA_PREFIX.previews}${hash}/`),
    deletePrefix(`${MEDIA_PREFIX.outputs}${hash}/`),
    deletePrefix(mediaKey.analysis(hash)),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

export async function eraseOrder(order: OrderRecord): Promise<ErasureReport> {
  const report: ErasureReport = {
    photos_deleted: 0,
    photos_kept: 0,
    files_deleted: 0,
    email_removed: false,
    signups_deleted: 0,
  };
  const email = order.email;

  // The e-mail goes first: if anything later fails, a retry still finds the order by its id and finishes the rest.
  const now = new Date().toISOString();
  for (const table of ['orders', 'generations'] as const) {
    // false where the item is missing: an unpaid order has no generation
    await writeIf(
      updateCommand(table, order.order_id, {
        setIfMissing: { erased_at: now },
        remove: ['email'],
        condition: `attribute_exists(${TABLES[table]})`,
      }),
    );
  }
  report.email_removed = true;

  for (const hash of order.hashes) {
    if (await heldElsewhere(hash, order.order_id)) {
      report.photos_kept++;
      continue;
    }
    report.files_deleted += await deletePhotoFiles(hash);
    await ddb().send(new DeleteCommand({ TableName: settings.table('images'), Key: { image_hash: hash } }));
    report.photos_deleted++;
  }

  if (email) {
    // Sign-ups are keyed `<normalised e-mail>#<hash>` (putSignup).
    const normalized = email.trim().toLowerCase();
    const signups = await scanAll({
      TableName: settings.table('signups'),
      ProjectionExpression: 'signup_id',
      FilterExpression: 'email = :e',
      ExpressionAttributeValues: { ':e': normalized },
    });
    for (const s of signups) {
      await ddb().send(new DeleteCommand({ TableName: settings.table('signups'), Key: { signup_id: s.signup_id } }));
    }
    report.signups_deleted = signups.length;
  }
  return report;
}
