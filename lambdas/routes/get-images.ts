import { imageFileName } from '../../domain/download-names';
import { isImageHash } from '../../domain/image-format';
import { STYLES } from '../../domain/styles';
import { httpHandler, notFound, pathParam, respond } from '../lib/http';
import { getImage } from '../lib/images';
import { mediaKey, presignDownload } from '../lib/media';
import { deliveredStyles } from '../lib/outputs';

/** GET /api/image/{hash} → [{url, styleName, styleId, imageHash, description}]: the photo's gallery, catalogue order. */
export const handler = httpHandler(async (event) => {
  const hash = pathParam(event, 'hash');
  const delivered = isImageHash(hash) ? deliveredStyles(await getImage(hash)) : new Set<string>();
  const styles = STYLES.filter((s) => delivered.has(s.id));
  if (!styles.length) throw notFound('No images found for this hash.');
  return respond(
    'get-images',
    200,
    await Promise.all(
      styles.map(async (s) => ({
        url: await presignDownload(mediaKey.output(hash, s.id), imageFileName(s.name, hash, 'image/png')),
        styleName: s.name,
        styleId: s.id,
        imageHash: hash,
        description: s.description,
      })),
    ),
  );
});
