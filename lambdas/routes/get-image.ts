import { imageFileName } from '../../domain/download-names';
import { isImageHash } from '../../domain/image-format';
import { getStyle } from '../../domain/styles';
import { httpHandler, notFound, pathParam, respond } from '../lib/http';
import { getImage } from '../lib/images';
import { mediaKey, presignDownload } from '../lib/media';
import { deliveredStyles } from '../lib/outputs';
import { isGenerative } from '../lib/renderer';

/** GET /api/image/{hash}/{style} → {url, styleName, styleId, imageHash, description, aiGenerated} of a delivered image. */
export const handler = httpHandler(async (event) => {
  const hash = pathParam(event, 'hash');
  const styleId = pathParam(event, 'style');
  const style = getStyle(styleId);
  // Only images generated for a paid order are served; anything else is simply not found.
  if (!isImageHash(hash) || !style || !deliveredStyles(await getImage(hash)).has(style.id))
    throw notFound('Image or style not found.');
  return respond('get-image', 200, {
    url: await presignDownload(mediaKey.output(hash, style.id), imageFileName(style.name, hash, 'image/png')),
    styleName: style.name,
    styleId: style.id,
    imageHash: hash,
    description: style.description,
    aiGenerated: isGenerative(style.id),
  });
});
