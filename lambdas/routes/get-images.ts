import { contract } from '../../domain/contract';
import { deliveredImages } from '../lib/delivered';
import { httpHandler, notFound, parseWith, pathParam, respond } from '../lib/http';
import { openShare } from '../lib/share-access';

/**
 * GET /api/image/{id} → [{url, styleName, styleId, imageHash, shareId, description, aiGenerated}]: a share's gallery,
 * the delivered images of one photo in one order (catalogue order). Never reached by the photo's hash.
 */
export const handler = httpHandler(async (event) => {
  const { id } = parseWith(contract['get-images'].params, { id: pathParam(event, 'id') });
  const open = await openShare(id);
  if (!open) throw notFound('No images found for this hash.');
  return respond(
    'get-images',
    200,
    await deliveredImages(open.generation, { hash: open.share.image_hash, described: true }),
  );
});
