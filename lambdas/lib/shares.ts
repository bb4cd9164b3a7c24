import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { isRandomId } from '../../domain/ownership';
import { ddb } from './aws';
import { randomId } from './owners';
import { settings } from './settings';

/**
 * Share links: one unguessable id per photo of an order (`/image/{share_id}[/{style}]`), so a shared link shows that
 * order's images of that photo and nothing else, and never carries the photo's hash or the order's id (the status
 * link, which may delete the order's data).
 */
export interface ShareRecord {
  share_id: string;
  order_id: string;
  image_hash: string;
  created_at: string;
}

const table = () => settings.table('shares');

/** A share id for each photo of an order (made with its generation, kept on it). */
export function newShareIds(hashes: string[]): Record<string, string> {
  return Object.fromEntries(hashes.map((h) => [h, randomId()]));
}

/** Writes an order's share rows; idempotent (the same ids each time, from the generation record). */
export async function putShares(orderId: string, shareIds: Record<string, string>): Promise<void> {
  const now = new Date().toISOString();
  const rows = Object.entries(shareIds).map(([image_hash, share_id]) => ({
    PutRequest: { Item: { share_id, order_id: orderId, image_hash, created_at: now } satisfies ShareRecord },
  }));
  for (let i = 0; i < rows.length; i += 25) await writeAll({ [table()]: rows.slice(i, i + 25) });
}

export async function deleteShares(shareIds: string[]): Promise<void> {
  const rows = shareIds.map((share_id) => ({ DeleteRequest: { Key: { share_id } } }));
  for (let i = 0; i < rows.length; i += 25) await writeAll({ [table()]: rows.slice(i, i + 25) });
}

/** BatchWriteItem until nothing is left unprocessed (DynamoDB may hand some back under load). */
async function writeAll(requests: Record<string, Record<string, unknown>[]>): Promise<void> {
  let pending: Record<string, Record<string, unknown>[]> | undefined = requests;
  for (let attempt = 0; pending && Object.keys(pending).length; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    const res = await ddb().send(new BatchWriteCommand({ RequestItems: pending as never }));
    pending = res.UnprocessedItems as typeof pending;
  }
}

/** The share a link names, or null (a malformed id is simply not found). */
export async function getShare(shareId: string): Promise<ShareRecord | null> {
  if (!isRandomId(shareId)) return null;
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: { share_id: shareId } }));
  return (res.Item as ShareRecord | undefined) ?? null;
}
