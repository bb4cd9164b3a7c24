import { contract } from '../../domain/contract';
import { getStyle } from '../../domain/styles';
import { mediaKey } from '../../domain/wiring';
import { httpHandler, notFound, parseWith, pathParam } from '../lib/http';
import { readObject } from '../lib/media';
import { getShare } from '../lib/shares';

/**
 * GET /api/share-card/{id}/{style} → the share's JPEG (og:image of its share page). A stable URL for as long as the
 * order's images exist: the card is deleted with them (and its share row), and this answers 404. Cached by browsers
 * and crawlers for an hour only, so a deletion is not outlived by long.
 */
export const handler = httpHandler(async (event) => {
  const { id, style } = parseWith(contract['share-card'].params, {
    id: pathParam(event, 'id'),
    style: pathParam(event, 'style'),
  });
  const share = await getShare(id);
  const card = share && getStyle(style) ? await readObject(mediaKey.shareCard(id, style)) : null;
  if (!card) throw notFound('Image or style not found.');
  return {
    statusCode: 200,
    headers: { 'content-type': 'image/jpeg', 'cache-control': 'public, max-age=3600' },
    body: card.toString('base64'),
    isBase64Encoded: true,
  };
});
