/**
 * The stand-in's `/v1` API over HTTP: the routes the app's SDK calls, Stripe's authentication and its
 * `Idempotency-Key` replay (the first response to a key is replayed; the same key with other parameters fails).
 */
import type * as http from 'node:http';
import type { LocalStripeApi } from './api';
import type { RequestContext } from './api-core';
import { decodeSegment, JSON_HEADERS, readText, send, sendJson, unrecognized } from './http-io';
import { type FormObject, parseForm, StripeApiError } from './params';
import { randomId } from './store';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

type Handler = (m: { id: string }, params: FormObject, ctx: RequestContext) => unknown;

interface IdempotentResult {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  at: number;
}

/** The operations the app and its tests call (lambdas/lib/payments.ts and its users, the reconciler, refunds). */
function routes(api: LocalStripeApi): [string, RegExp, Handler][] {
  return [
    ['POST', /^\/v1\/checkout\/sessions$/, (_m, p) => api.createSession(p)],
    ['GET', /^\/v1\/checkout\/sessions$/, (_m, p) => api.listSessions(p)],
    ['GET', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)$/, (m, p) => api.retrieveSession(m.id, p)],
    ['GET', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)\/line_items$/, (m, p) => api.listLineItems(m.id, p)],
    ['POST', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)\/expire$/, (m, p, c) => api.expireSession(m.id, p, c)],
    ['GET', /^\/v1\/payment_intents\/(?<id>[^/]+)$/, (m, p) => api.retrievePaymentIntent(m.id, p)],
    ['GET', /^\/v1\/charges\/(?<id>[^/]+)$/, (m, p) => api.retrieveCharge(m.id, p)],
    ['POST', /^\/v1\/refunds$/, (_m, p, c) => api.createRefund(p, c)],
    ['GET', /^\/v1\/refunds$/, (_m, p) => api.listRefunds(p)],
    ['GET', /^\/v1\/events\/(?<id>[^/]+)$/, (m, p) => api.retrieveEvent(m.id, p)],
  ];
}

export interface ApiKeys {
  secretKey: string;
  publishableKey: string;
  apiVersion: string;
}

/** Stripe's answer to a missing, publishable or wrong key; null when the secret key was given. */
function authenticate(req: http.IncomingMessage, keys: ApiKeys): StripeApiError | null {
  const header = req.headers.authorization ?? '';
  let key: string | undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (bearer) key = bearer[1];
  else if (basic) key = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  if (!key) {
    return new StripeApiError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  if (key === keys.publishableKey) {
    return new StripeApiError(
      401,
      'This API call cannot be made with a publishable API key. Please use a secret API key.',
    );
  }
  if (key !== keys.secretKey) {
    const masked =
      key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 24))}${key.slice(-4)}` : '****';
    return new StripeApiError(401, `Invalid API Key provided: ${masked}`, { code: 'api_key_invalid' });
  }
  return null;
}

/** The handler of every request under `/v1/`. */
export function apiHandler(api: LocalStripeApi, keys: ApiKeys) {
  const apiRoutes = routes(api);
  const idempotency = new Map<string, IdempotentResult>();

  /** A prior response to `key` (replayed), an idempotency error, or undefined: a first request. */
  function replay(key: string, fingerprint: string): IdempotentResult | StripeApiError | undefined {
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const [k, v] of idempotency) if (v.at < cutoff) idempotency.delete(k);
    const prior = idempotency.get(key);
    if (!prior || prior.fingerprint === fingerprint) return prior;
    return new StripeApiError(
      400,
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      { type: 'idempotency_error' },
    );
  }

  return async function handleApi(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    url: URL,
  ): Promise<void> {
    const requestId = randomId('req_', 14);
    const version = typeof req.headers['stripe-version'] === 'string' ? req.headers['stripe-version'] : keys.apiVersion;
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const headers: Record<string, string> = { 'Request-Id': requestId, 'Stripe-Version': version };
    if (key && method === 'POST') headers['Idempotency-Key'] = key;
    const fail = (err: StripeApiError) => sendJson(res, err.status, err.toBody(), headers);

    const authError = authenticate(req, keys);
    if (authError) {
      req.resume();
      return fail(authError);
    }
    const body = method === 'POST' ? await readText(req) : '';
    if (method !== 'POST') req.resume();
    const route = apiRoutes.find(([m, re]) => m === method && re.test(url.pathname));
    if (!route) return fail(new StripeApiError(404, unrecognized(method, url.pathname)));

    const fingerprint = `${method} ${url.pathname}\n${body}`;
    if (key && method === 'POST') {
      const prior = replay(key, fingerprint);
      if (prior instanceof StripeApiError) return fail(prior);
      if (prior) {
        return send(res, prior.status, prior.body, {
          ...JSON_HEADERS,
          ...headers,
          'Request-Id': prior.requestId,
          'Idempotent-Replayed': 'true',
        });
      }
    }

    let status = 200;
    let result: unknown;
    try {
      const contentType = String(req.headers['content-type'] ?? '');
      if (body && !/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
        throw new StripeApiError(
          400,
          'Invalid request (check that your POST content type is application/x-www-form-urlencoded).',
        );
      }
      const params = parseForm(method === 'POST' ? body : url.search.slice(1));
      const match = route[1].exec(url.pathname);
      const id = match?.groups?.id ? decodeSegment(match.groups.id) : '';
      result = route[2]({ id }, params, { requestId, idempotencyKey: key });
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      result = err.toBody();
    }
    const text = `${JSON.stringify(result, null, 2)}\n`;
    if (key && method === 'POST') idempotency.set(key, { fingerprint, status, body: text, requestId, at: Date.now() });
    send(res, status, text, { ...JSON_HEADERS, ...headers });
  };
}
