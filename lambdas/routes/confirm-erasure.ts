import { contract } from '../../domain/contract';
import { isRandomId } from '../../domain/ownership';
import { confirmErasure } from '../lib/address-erasure';
import { httpHandler, notFound, parseWith, pathParam, respond } from '../lib/http';

/**
 * POST /api/erasure/{token} → what was deleted: the link e-mailed to an address erases every order and sign-up
 * tied to it. Unknown, used or expired links are all "not found".
 */
export const handler = httpHandler(async (event) => {
  const { token } = parseWith(contract['confirm-erasure'].params, { token: pathParam(event, 'token') });
  const report = isRandomId(token) ? await confirmErasure(token) : null;
  if (!report) throw notFound('This link is not valid any more. Ask for a new one.');
  return respond('confirm-erasure', 200, { deleted: report });
});
