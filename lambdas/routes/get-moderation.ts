import { contract } from '../../domain/contract';
import { refusalReason } from '../../domain/moderation-policy';
import { httpHandler, parseWith, pathParam, respond } from '../lib/http';
import { ownedImage } from '../lib/owners';

/**
 * GET /api/get-moderation/{image_hash} → {image_hash, moderation, reason?}, for the photo's owner (else 404): 'allowed' passes; 'rejected' (against the
 * Terms), 'invalid' (not a usable upload) or 'pending' (not moderated yet). A refused photo carries a short reason
 * in words for the visitor ("looks like it may contain nudity"); the labels behind it stay in the table for the operator.
 */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash } = parseWith(contract['get-moderation'].params, {
    image_hash: pathParam(event, 'image_hash'),
  });
  const image = await ownedImage(event, hash);
  const moderation = image.moderation ?? 'pending';
  const refused = moderation === 'rejected' || moderation === 'invalid';
  return respond('get-moderation', 200, {
    image_hash: hash,
    moderation,
    ...(refused ? { reason: refusalReason(moderation, image.moderation_category, image) } : {}),
  });
});
