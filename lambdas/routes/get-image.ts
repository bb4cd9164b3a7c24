import { contract } from '../../domain/contract';
import { deliveredImages } from '../lib/delivered';
import { httpHandler, notFound, parseWith, pathParam, respond } from '../lib/http';
import { openShare } from '../lib/share-access';

/**
 * GET /api/image/{id}/{style} → {url, styleName, styleId, imageHash, shareId, description, aiGenerated}: one delivered
 * image of a share (one photo of one order). The id is the share link's; a photo's hash opens nothing here.
 */
export const handler = httpHandler(async (event) => {
  const { id, style } = parseWith(contract['get-image'].params, {
    id: pathParam(event, 'id'),
    style: pathParam(event, 'style'),
  });
  const open = await openShare(id);
  const [image] = open
    ? await deliveredImages(open.generation, { hash: open.share.image_hash, style, described: true })
    : [];
  if (!image) throw notFound('Image or style not found.');
  return respond('get-image', 200, image);
});
