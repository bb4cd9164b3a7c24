import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mediaKey } from '../../domain/wiring';
import { badRequest } from './http';
import { getImage, markVerified, recordModeration } from './images';
import { copyObject, deleteObject, objectExists, verifyUpload } from './media';
import { logger } from './observability';
import { callerOwner, deleteHold, getHold, type HoldRecord, notYours, ownerHold } from './owners';

/**
 * A pending owner proves they have a photo by uploading its bytes to their registration's own key (S3 checks the
 * signed SHA-256 there; the local S3 does not, so the bytes are hashed here too). Once checked, they own the photo:
 * the first proof of a photo becomes its stored copy, later ones are deleted (same bytes, nothing to keep).
 * 'missing': not uploaded yet (still pending). `refused`: the upload was not the stored photo (deleted, hold dropped),
 * and why, in words for the visitor.
 */
export async function confirmProof(
  hold: HoldRecord,
  owner: string,
): Promise<'owner' | 'missing' | { refused: string }> {
  const hash = hold.image_hash;
  if (!hold.registration_id) return 'missing';
  const key = mediaKey.proof(hold.registration_id);
  const check = await verifyUpload(hash, key);
  if (!check.ok) {
    if (check.reason === 'missing') return 'missing';
    logger.warn('proof upload refused', { image_hash: hash, reason: check.reason });
    // No copy of the photo is stored: what this visitor uploaded is the only upload of that hash, so it is judged
    // like any bad upload (an 'invalid' verdict, shown to them with its reason at the style step), and theirs.
    // Where another owner's good copy is stored, the upload only failed to prove anything: it owns nothing.
    if (!(await objectExists(mediaKey.upload(hash)))) {
      await recordModeration(hash, 'invalid', [check.message]);
      await ownerHold(hash, owner, 'owner');
      return 'owner';
    }
    await deleteHold(hash, `owner#${owner}`);
    return { refused: check.message };
  }
  // A refused photo is never stored (lambdas/lib/moderation.ts): its bytes proved ownership, nothing more.
  if ((await getImage(hash))?.moderation !== 'rejected' && !(await objectExists(mediaKey.upload(hash)))) {
    await copyObject(key, mediaKey.upload(hash));
    await markVerified(hash, check.info);
  }
  await ownerHold(hash, owner, 'owner');
  await deleteObject(key);
  return 'owner';
}

/**
 * The caller must own every photo: a pending registration whose bytes are now uploaded is confirmed here (the style
 * step's first call after the upload); anything else is answered as a photo never registered (404).
 */
export async function requireOwnership(event: APIGatewayProxyEventV2, hashes: string[]): Promise<void> {
  const owner = callerOwner(event);
  await Promise.all(
    hashes.map(async (hash) => {
      const hold = owner ? await getHold(hash, `owner#${owner}`) : null;
      if (hold?.state === 'owner') return;
      const proof = owner && hold?.state === 'pending' ? await confirmProof(hold, owner) : null;
      if (proof === 'owner') return;
      // The visitor's own upload was not the photo: say why (the spec shows it after 'Failed to start moderation: ').
      if (proof && typeof proof === 'object') throw badRequest(`Photo ${hash.slice(0, 12)}: ${proof.refused}`);
      throw notYours(hash);
    }),
  );
}
