import { STYLES } from '../../domain/styles';
import { HttpError, httpHandler, json, pathParam } from '../lib/http';
import { mediaKey, presignDownload } from '../lib/media';
import { imageHash, knownImage } from '../lib/requests';

/** GET /api/get-thumbnails/{image_hash} → [{style: {id}, image: short-lived URL}] in catalogue order. */
export const handler = httpHandler(async (event) => {
  const hash = imageHash(pathParam(event, 'image_hash'));
  const image = await knownImage(hash);
  if (image.moderation !== 'allowed') throw new HttpError(403, 'Image has not passed moderation.');
  const ready = STYLES.filter((s) => image.previews?.includes(s.id));
  return json(200, await Promise.all(ready.map(async (s) => ({ style: { id: s.id }, image: await presignDownload(mediaKey.preview(hash, s.id)) }))));
});
