import { contract } from '../../domain/contract';
import { httpHandler, parseBody, respond } from '../lib/http';
import { putSignup } from '../lib/orders';

/**
 * POST /api/preview-signup {email, image_hash} → 201 {status: 'signed_up'}, or 200 {status: 'already_signed_up'}
 * when this e-mail already asked about this photo (answered kindly: signing up twice is not an error).
 * The photo need not be registered: the page falls back to a placeholder hash when no photo passed moderation.
 */
export const handler = httpHandler(async (event) => {
  const { email, image_hash: hash } = parseBody(event, contract['preview-signup'].request);
  const created = await putSignup(email, hash);
  return created
    ? respond('preview-signup', 201, { status: 'signed_up' })
    : respond('preview-signup', 200, { status: 'already_signed_up' });
});
