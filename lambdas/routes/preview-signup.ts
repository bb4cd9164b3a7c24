import { contract } from '../../domain/contract';
import { PLACEHOLDER_IMAGE_HASH } from '../../domain/ownership';
import { httpHandler, parseBody, respond } from '../lib/http';
import { notYours, ownedHold } from '../lib/owners';
import { putSignup } from '../lib/signups';

/**
 * POST /api/preview-signup {email, image_hash} → 201 {status: 'signed_up'}, or 200 {status: 'already_signed_up'}
 * when this e-mail already asked about this photo (answered kindly: signing up twice is not an error).
 * The photo must be the caller's own, except the spec's placeholder hash, which the page sends when no photo passed
 * moderation (it names no photo).
 */
export const handler = httpHandler(async (event) => {
  const { email, image_hash: hash } = parseBody(event, contract['preview-signup'].request);
  if (hash !== PLACEHOLDER_IMAGE_HASH && !(await ownedHold(event, hash))) throw notYours(hash);
  const created = await putSignup(email, hash);
  return created
    ? respond('preview-signup', 201, { status: 'signed_up' })
    : respond('preview-signup', 200, { status: 'already_signed_up' });
});
