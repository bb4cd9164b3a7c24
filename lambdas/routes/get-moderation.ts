import { refusalReason } from '../../domain/moderation-policy';
import { httpHandler, json, pathParam } from '../lib/http';
import { imageHash, knownImage } from '../lib/requests';

/**
 * GET /api/get-moderation/{image_hash} → {image_hash, moderation, reason?}: 'allowed' passes; 'rejected' (against the
 * Terms), 'invalid' (not a usable upload) or 'pending' (not moderated yet). A refused photo carries a short reason
 * in words for the visitor ("looks like it may contain nudity"); the labels behind it stay in the table for the operator.
 */
export const handler = httpHandler(async (event) => {
  const hash = imageHash(pathParam(event, 'image_hash'));
  const image = await knownImage(hash);
  const moderation = image.moderation ?? 'pending';
  const refused = moderation === 'rejected' || moderation === 'invalid';
  return json(200, {
    image_hash: hash,
    moderation,
    ...(refused ? { reason: refusalReason(moderation, image.moderation_category) } : {}),
  });
});
