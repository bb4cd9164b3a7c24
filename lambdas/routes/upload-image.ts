import { contract } from '../../domain/contract';
import { httpHandler, respond, parseBody } from '../lib/http';
import { getImage, markVerified, registerImage } from '../lib/images';
import { mediaKey, objectExists, presignUpload, verifyUpload } from '../lib/media';

/**
 * POST /api/upload-image {image_hash, file_type}: 'exists' when a verified copy is stored, else a short-lived
 * presigned PUT URL bound to the content type. A stored copy that fails its hash check is removed and re-requested.
 */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash, file_type: type } = parseBody(event, contract['upload-image'].request);

  const key = mediaKey.upload(hash);
  if (await objectExists(key)) {
    const record = await getImage(hash);
    if (record?.verified) return respond('upload-image', 200, { status: 'exists' });
    const check = await verifyUpload(hash);
    if (check.ok) {
      await markVerified(hash, check.info);
      return respond('upload-image', 200, { status: 'exists' });
    }
  }
  await registerImage(hash, type);
  return respond('upload-image', 200, { status: 'upload', url: { url: await presignUpload(key, type) } });
});
