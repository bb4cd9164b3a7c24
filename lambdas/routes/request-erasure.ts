import { contract } from '../../domain/contract';
import { requestErasure } from '../lib/address-erasure';
import { httpHandler, parseBody, respond } from '../lib/http';

/**
 * POST /api/erasure-request {email} → 202 {status: 'sent'}: a one-time link to erase everything tied to the address
 * goes to that address (lambdas/lib/address-erasure.ts). The same answer whether the address has data or not.
 */
export const handler = httpHandler(async (event) => {
  const { email } = parseBody(event, contract['request-erasure'].request);
  await requestErasure(email);
  return respond('request-erasure', 202, { status: 'sent' });
});
