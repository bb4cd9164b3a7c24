import { isAcceptedType, isImageHash } from '../../domain/image-format';
import { badRequest, httpHandler, json, jsonBody } from '../lib/http';
import { getImage, markVerified, registerImage } from '../lib/images';
import { mediaKey, objectExists, presignUpload, verifyUpload } from '../lib/media';

/**
 * POST /api/upload-image {image_hash, file_type}: 'exists' when a verified copy is stored, else a short-lived
 * presigned PUT URL bound to the content type. A stored copy that fails its hash check is removed and re-requested.
 */
export const handler = httpHandler(async (event) => {
  const body = jsonBody(event);
  const hash = body.image_hash;
  const type = body.file_type;
  if (!isImageHash(hash)) throw badRequest('image_hash must be the SHA-256 of the file as 64 lowercase hex characters.');
  if (!isAcceptedType(type)) throw badRequest('Only JPG/PNG files are allowed');

  const key = mediaKey.upload(hash);
  if (await objectExists(key)) {
    const record = await getImage(hash);
    if (record?.verified) return json(200, { status: 'exists' });
    const check = await verifyUpload(hash);
    if (check.ok) {
      await markVerified(hash, check.info);
      return json(200, { status: 'exists' });
    }
  }
  await registerImage(hash, type);
  return json(200, { status: 'upload', url: { url: await presignUpload(key, type) } });
});
