import { httpHandler, json, pathParam } from '../lib/http';
import { imageHash, knownImage } from '../lib/requests';

/**
 * GET /api/get-moderation/{image_hash} → {image_hash, moderation}: 'allowed' passes; 'rejected' (against the Terms),
 * 'invalid' (not a usable upload) or 'pending' (not moderated yet). Reasons stay in the table for the operator.
 */
export const handler = httpHandler(async (event) => {
  const hash = imageHash(pathParam(event, 'image_hash'));
  const image = await knownImage(hash);
  return json(200, { image_hash: hash, moderation: image.moderation ?? 'pending' });
});
