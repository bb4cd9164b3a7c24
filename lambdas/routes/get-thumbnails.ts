import { STYLES } from '../../domain/styles';
import { contract } from '../../domain/contract';
import { HttpError, httpHandler, respond, parseWith, pathParam } from '../lib/http';
import { mediaKey, presignDownload } from '../lib/media';
import { knownImage } from '../lib/requests';

/** GET /api/get-thumbnails/{image_hash} → [{style: {id}, image: short-lived URL}] in catalogue order. */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash } = parseWith(contract['get-thumbnails'].params, { image_hash: pathParam(event, 'image_hash') });
  const image = await knownImage(hash);
  if (image.moderation !== 'allowed') throw new HttpError(403, 'Image has not passed moderation.');
  const ready = STYLES.filter((s) => image.previews?.includes(s.id));
  const thumbnails = await Promise.all(ready.map(async (s) => ({ style: { id: s.id }, image: await presignDownload(mediaKey.preview(hash, s.id)) })));
  return respond('get-thumbnails', 200, thumbnails);
});
