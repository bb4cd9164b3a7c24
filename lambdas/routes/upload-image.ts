import { contract } from '../../domain/contract';
import { mediaKey } from '../../domain/wiring';
import { busyAnswer, takeCaps } from '../lib/caps';
import { httpHandler, parseBody, respond } from '../lib/http';
import { getImage, markVerified, passBinding, registerImage } from '../lib/images';
import { checkBinding, objectExists, presignUpload, verifyUpload } from '../lib/media';
import { getHold, ownerHold, ownerOrIssue, randomId } from '../lib/owners';
import { confirmProof } from '../lib/proofs';

/**
 * POST /api/upload-image {image_hash, file_type, file_size}: 'exists' for the photo's owner when a good copy is
 * stored, else a short-lived presigned PUT URL that accepts only these bytes (type, length and SHA-256 signed,
 * write-once). The caller gets an owner secret (cookie) if they have none. Knowing a hash proves nothing: whoever
 * does not own the photo yet must upload its bytes, to a key of their registration's own, even when a copy is
 * stored; only then do they own it (lambdas/lib/proofs.ts). An image whose judged object is still stored is never
 * re-registered, so the photo a verdict was made on cannot be replaced through us.
 */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash, file_type: type, file_size: size } = parseBody(event, contract['upload-image'].request);
  const { owner, cookie } = ownerOrIssue(event);
  const answer = (body: Parameters<typeof respond<'upload-image'>>[2]) => ({
    ...respond('upload-image', 200, body),
    ...(cookie ? { cookies: [cookie] } : {}),
  });

  let hold = await getHold(hash, `owner#${owner}`);
  if (hold?.state === 'pending' && (await confirmProof(hold, owner)) === 'owner') hold = { ...hold, state: 'owner' };
  const record = await getImage(hash);

  if (hold?.state === 'owner') {
    // Refused photos are not kept, and the refusal stands for their bytes: nothing to upload again.
    if (record?.moderation === 'rejected') return answer({ status: 'exists' });
    const judged = record ? passBinding(record) : null;
    if (judged) {
      if ((await checkBinding(hash, judged)).ok) return answer({ status: 'exists' });
      // The judged object changed or vanished (and was removed): the verdict no longer stands; upload afresh below.
    } else if (await objectExists(mediaKey.upload(hash))) {
      if (record?.verified) return answer({ status: 'exists' });
      const check = await verifyUpload(hash);
      if (check.ok) {
        await markVerified(hash, check.info);
        return answer({ status: 'exists' });
      }
    }
  }

  // An upload URL is stored bytes we pay for: counted against the global caps, or a 429 (never a 5xx).
  const cap = await takeCaps({ uploads: 1, uploadBytes: size });
  if (!cap.ok) return { ...busyAnswer(cap), ...(cookie ? { cookies: [cookie] } : {}) };
  // A new registration: this caller's own upload key, pending until its bytes are checked (also for an owner whose
  // copy is gone). The photo's record is reset only when no copy is stored (another owner's photo and its verdict stay).
  const registration = randomId();
  // A refused photo's record keeps its verdict: the new owner's bytes are checked against the hash and refused too.
  if (!record || (record.moderation !== 'rejected' && !(await objectExists(mediaKey.upload(hash)))))
    await registerImage(hash, type, size);
  await ownerHold(hash, owner, 'pending', registration);
  const url = await presignUpload(mediaKey.proof(registration), type, size, hash);
  return answer({ status: 'upload', url: { url } });
});
