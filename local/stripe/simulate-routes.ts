/**
 * Test hooks, without auth: POST /__simulate/pay/:id pays a session as the test card would, without a browser,
 * and answers with the event and its first delivery; GET /__simulate/events[?type=] lists every recorded event with
 * its delivery log.
 */
import type * as http from 'node:http';
import type { LocalStripeApi } from './api';
import { decodeSegment, readText, sendJson } from './http-io';
import { parseForm, StripeApiError } from './params';

/** The body of a simulated payment: JSON or a form, both optional ({email, name}). */
function simulateInput(req: http.IncomingMessage, body: string): Record<string, unknown> | StripeApiError {
  if (!body.trim()) return {};
  if (!/json/i.test(String(req.headers['content-type'] ?? ''))) return parseForm(body);
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return new StripeApiError(400, 'Invalid JSON body');
  }
}

export function simulateHandler(api: LocalStripeApi) {
  async function pay(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
    const input = simulateInput(req, await readText(req));
    if (input instanceof StripeApiError) return sendJson(res, input.status, input.toBody());
    try {
      const rec = api.getSession(id);
      const email =
        (typeof input.email === 'string' && input.email) || rec?.session.customer_email || 'test@example.com';
      const name = typeof input.name === 'string' ? input.name : null;
      const card = { cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, postalCode: null };
      const result = api.pay(id, { email, name, ...card });
      const delivery = await result.delivery;
      return sendJson(res, 200, {
        event: result.event,
        session: result.session,
        payment_intent: result.paymentIntent,
        delivery,
      });
    } catch (err) {
      if (err instanceof StripeApiError) return sendJson(res, err.status, err.toBody());
      throw err;
    }
  }

  return async function handleSimulate(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    url: URL,
  ): Promise<void> {
    const paid = /^\/__simulate\/pay\/([^/]+)$/.exec(url.pathname);
    if (paid && method === 'POST') return pay(req, res, decodeSegment(paid[1]));
    req.resume();
    if (url.pathname === '/__simulate/events' && method === 'GET') {
      const type = url.searchParams.get('type') ?? undefined;
      return sendJson(res, 200, { object: 'list', data: api.eventLog(type) });
    }
    sendJson(res, 404, new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`).toBody());
  };
}
