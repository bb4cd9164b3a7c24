import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { ErasureReport } from '../../domain/contract';
import { MEDIA_PREFIX, mediaKey, TABLES } from '../../domain/wiring';
import { ddb, s3, writeIf } from './aws';
import { type GenerationRecord, getGeneration } from './generations';
import { updateCommand } from './item-update';
import type { OrderRecord } from './orders';
import { deleteHold, holdsOf } from './owners';
import { settings } from './settings';
import { deleteShares } from './shares';

/**
 * The customer's right to be forgotten for one order (POST /api/generation/{id}/delete), by whoever holds its status
 * link: the order's own images and share links go, its e-mail address leaves the order and generation records, and
 * the order lets go of its photos. A photo itself (upload, previews, analysis, record) goes only when nobody holds it
 * any more: no other order, and no other owner (lambdas/lib/owners.ts, one Query of the holds' by-image index). The
 * owner who placed the order lets go of it too, unless another of their orders still holds it. Sign-ups are not
 * an order's: erasing everything tied to an address needs that address to confirm. Kept: what accounting needs.
 */

const EMPTY: ErasureReport = {
  photos_deleted: 0,
  photos_kept: 0,
  files_deleted: 0,
  email_removed: false,
  signups_deleted: 0,
};

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

/** Every stored file of one photo nobody holds: the upload, its previews and the engine's analysis of it. */
async function deletePhotoFiles(hash: string): Promise<number> {
  const counts = await Promise.all([
    deletePrefix(mediaKey.upload(hash)),
    deletePrefix(`${MEDIA_PREFIX.previews}${hash}/`),
    deletePrefix(mediaKey.analysis(hash)),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

/** The order lets go of one photo; true when nobody holds it any more (it was deleted). */
async function releasePhoto(order: OrderRecord, hash: string, report: ErasureReport): Promise<void> {
  await deleteHold(hash, `order#${order.order_id}`);
  let holds = (await holdsOf(hash)).filter((h) => h.holder !== `order#${order.order_id}`);
  const ownOtherOrder = holds.some((h) => h.holder.startsWith('order#') && h.owner === order.owner);
  if (order.owner && !ownOtherOrder) {
    await deleteHold(hash, `owner#${order.owner}`);
    holds = holds.filter((h) => h.holder !== `owner#${order.owner}`);
  }
  if (holds.length) {
    report.photos_kept++;
    return;
  }
  report.files_deleted += await deletePhotoFiles(hash);
  await ddb().send(new DeleteCommand({ TableName: settings.table('images'), Key: { image_hash: hash } }));
  report.photos_deleted++;
}

/** The order's own paid images and share links (cards and rows). */
async function deleteOrderImages(order: OrderRecord, generation: GenerationRecord | null): Promise<number> {
  const shareIds = Object.values(generation?.share_ids ?? {});
  const counts = await Promise.all([
    deletePrefix(mediaKey.orderOutputs(order.order_id)),
    ...shareIds.map((id) => deletePrefix(mediaKey.shareCards(id))),
  ]);
  await deleteShares(shareIds);
  return counts.reduce((a, b) => a + b, 0);
}

export async function eraseOrder(order: OrderRecord): Promise<ErasureReport> {
  // Done before: a repeated delete changes nothing and reads nothing more.
  if (order.erased_at) return { ...EMPTY };
  const report: ErasureReport = { ...EMPTY };
  const generation = await getGeneration(order.order_id);

  // Images and share links first, so nothing of the order is reachable once it says it is erased.
  report.files_deleted += await deleteOrderImages(order, generation);
  for (const hash of order.hashes) await releasePhoto(order, hash, report);

  // The e-mail and the erasure mark last: a run that fails before is retried in full by the same link.
  const now = new Date().toISOString();
  for (const table of ['generations', 'orders'] as const) {
    // false where the item is missing: an unpaid order has no generation
    await writeIf(
      updateCommand(table, order.order_id, {
        setIfMissing: { erased_at: now },
        remove: ['email', 'email_key'],
        condition: `attribute_exists(${TABLES[table]})`,
      }),
    );
  }
  report.email_removed = true;
  return report;
}
