import { EMAIL_MESSAGES, isValidEmail } from '../../domain/email';
import { badRequest, httpHandler, json, jsonBody } from '../lib/http';
import { putSignup } from '../lib/orders';
import { imageHash } from '../lib/requests';

/**
 * POST /api/preview-signup {email, image_hash} → 201 {status: 'signed_up'}, or 200 {status: 'already_signed_up'}
 * when this e-mail already asked about this photo (answered kindly: signing up twice is not an error).
 * The photo need not be registered: the page falls back to a placeholder hash when no photo passed moderation.
 */
export const handler = httpHandler(async (event) => {
  const body = jsonBody(event);
  if (typeof body.email !== 'string' || !body.email.trim()) throw badRequest(EMAIL_MESSAGES.required);
  if (!isValidEmail(body.email) || body.email.trim().length > 254) throw badRequest(EMAIL_MESSAGES.invalid);
  const hash = imageHash(body.image_hash);
  const created = await putSignup(body.email, hash);
  return created ? json(201, { status: 'signed_up' }) : json(200, { status: 'already_signed_up' });
});
