import { contract } from '../../domain/contract';
import { busyAnswer, takeCaps } from '../lib/caps';
import { httpHandler, parseBody, respond } from '../lib/http';
import { getImage, markVerified, registerImage, verdictBinding } from '../lib/images';
import { checkBinding, mediaKey, objectExists, presignUpload, verifyUpload } from '../lib/media';

/**
 * POST /api/upload-image {image_hash, file_type, file_size}: 'exists' when a good copy is stored, else a short-lived
 * presigned PUT URL that accepts only these bytes (type, length and SHA-256 signed, write-once).
 * An image whose judged object is still stored is never re-registered: no new URL exists for it, so the photo a
 * verdict was made on cannot be replaced through us. A stored copy that fails its checks is removed and re-requested.
 */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash, file_type: type, file_size: size } = parseBody(event, contract['upload-image'].request);

  const key = mediaKey.upload(hash);
  const record = await getImage(hash);
  const judged =
    record && (record.moderation === 'allowed' || record.moderation === 'rejected') ? verdictBinding(record) : null;
  if (judged) {
    if ((await checkBinding(hash, judged)).ok) return respond('upload-image', 200, { status: 'exists' });
    // The judged object changed or vanished (and was removed): the verdict no longer stands; register afresh below.
  } else if (await objectExists(key)) {
    if (record?.verified) return respond('upload-image', 200, { status: 'exists' });
    const check = await verifyUpload(hash);
    if (check.ok) {
      await markVerified(hash, check.info);
      return respond('upload-image', 200, { status: 'exists' });
    }
  }
  // An upload URL is stored bytes we pay for: counted against the global caps, or a 429 (never a 5xx).
  const cap = await takeCaps({ uploads: 1, uploadBytes: size });
  if (!cap.ok) return busyAnswer(cap);
  await registerImage(hash, type, size);
  return respond('upload-image', 200, { status: 'upload', url: { url: await presignUpload(key, type, size, hash) } });
});
