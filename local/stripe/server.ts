/**
 * Local Stripe stand-in used by `npm start` in payment mode `simulated`.
 *
 * Speaks the subset of the Stripe v1 REST API the app uses, so the app's server code can keep using
 * the real `stripe` SDK pointed at it (`new Stripe(secretKey, { host, port, protocol: 'http' })`), and
 * serves a hosted checkout page (clearly marked as a simulated test payment) that completes the
 * Checkout Session and delivers signed webhooks (`checkout.session.completed`, ...) with retries.
 *
 *   API        POST /v1/checkout/sessions, GET /v1/checkout/sessions[/:id[/line_items]],
 *              POST /v1/checkout/sessions/:id/expire, GET /v1/payment_intents/:id, GET /v1/charges/:id,
 *              POST|GET /v1/refunds, GET /v1/refunds/:id, GET /v1/events[/:id]
 *   Browser    GET|POST /pay/:id, POST /pay/:id/cancel
 *   Test hooks POST /__simulate/pay/:id, GET /__simulate/events[?type=], GET /__simulate/health
 */

import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { readBody } from '../../engine/http-body';
import { cardProblem, LocalStripeApi, type RequestContext } from './api';
import { type CheckoutPageInput, type PageOptions, renderCheckoutPage, renderMessagePage } from './page';
import { type FormObject, parseForm, StripeApiError } from './params';
import { randomId, Store } from './store';
import { WebhookDispatcher } from './webhooks';

export interface LocalStripeOptions {
  /** Port to listen on; 0 or omitted picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Base URL browsers use to reach this server (checkout page links); default http://localhost:<port>. */
  publicUrl?: string;
  /** Where events are POSTed (the app's Stripe webhook route). Empty string: record events without sending. */
  webhookUrl: string;
  /** The endpoint's signing secret (whsec_...), as the app would get it from the Stripe dashboard. */
  webhookSecret: string;
  /** JSON file holding sessions, payment intents, charges, refunds and events across restarts. */
  dataFile?: string;
  /** Secret key the API accepts (Bearer or Basic auth); default `sk_test_toonzap_local_simulated`. */
  secretKey?: string;
  /** Publishable key handed to the frontend; default `pk_test_toonzap_local_simulated`. */
  publishableKey?: string;
  /** Delays before each webhook retry; default [1s, 5s, 30s, 2min, 10min] (6 attempts in all). */
  webhookRetryDelaysMs?: number[];
  /** Per-attempt timeout for webhook deliveries; default 10 s. */
  webhookTimeoutMs?: number;
  /** Event types sent to webhookUrl (all are still recorded); default ['*']. */
  enabledEvents?: string[];
  /** How often sessions past `expires_at` are expired; default 5000 ms. (They are also checked on every access.) */
  expiryCheckIntervalMs?: number;
  /** Merchant name on the checkout page; default 'ToonZap'. */
  accountName?: string;
  /** `api_version` stamped on events; default the installed SDK's pinned version. */
  apiVersion?: string;
  /** Clock (Unix ms) for object timestamps and expiry; for tests. Webhook signatures always use the wall clock. */
  now?: () => number;
  /** Log sink; default console.log with a `[stripe-local]` prefix. */
  log?: (line: string) => void;
}

export interface LocalStripe {
  /** Base URL of the API as seen from this machine, e.g. http://127.0.0.1:4242. */
  url: string;
  port: number;
  /** Base URL browsers use (checkout page links). */
  publicUrl: string;
  secretKey: string;
  publishableKey: string;
  /** Ready-made second argument for `new Stripe(secretKey, config)`. */
  stripeConfig: { host: string; port: number; protocol: 'http' };
  close(): Promise<void>;
}

const DEFAULT_SECRET_KEY = 'sk_test_toonzap_local_simulated';
const DEFAULT_PUBLISHABLE_KEY = 'pk_test_toonzap_local_simulated';
const MAX_BODY = 1024 * 1024;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

type Handler = (m: { id: string }, params: FormObject, ctx: RequestContext) => unknown;

interface IdempotentResult {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  at: number;
}

function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startLocalStripe(opts: LocalStripeOptions): Promise<LocalStripe> {
  if (!opts.webhookSecret) throw new Error('startLocalStripe: webhookSecret is required');
  const log = opts.log ?? ((line: string) => console.log(`[stripe-local] ${line}`));
  if (!opts.webhookSecret.startsWith('whsec_')) log(`warning: webhookSecret does not start with "whsec_"`);
  const secretKey = opts.secretKey ?? DEFAULT_SECRET_KEY;
  const publishableKey = opts.publishableKey ?? DEFAULT_PUBLISHABLE_KEY;
  if (!secretKey.startsWith('sk_test_'))
    throw new Error('startLocalStripe: secretKey must be a test-mode key (sk_test_...)');
  const now = opts.now ?? Date.now;
  const apiVersion = opts.apiVersion ?? Stripe.API_VERSION;
  const host = opts.host ?? '127.0.0.1';

  const store = new Store(opts.dataFile);
  const dispatcher = opts.webhookUrl
    ? new WebhookDispatcher({
        url: opts.webhookUrl,
        secret: opts.webhookSecret,
        retryDelaysMs: opts.webhookRetryDelaysMs ?? [1_000, 5_000, 30_000, 120_000, 600_000],
        timeoutMs: opts.webhookTimeoutMs ?? 10_000,
        log,
        onChange: () => store.save(),
      })
    : null;

  // publicUrl depends on the port, known only after listen(); the API reads it lazily.
  let publicUrl = '';
  const api = new LocalStripeApi({
    store,
    dispatcher,
    get publicUrl() {
      return publicUrl;
    },
    apiVersion,
    enabledEvents: opts.enabledEvents ?? ['*'],
    now,
    log,
  });
  const pageOptions = (): PageOptions => ({
    accountName: opts.accountName ?? 'ToonZap',
    nonce: randomBytes(16).toString('base64'),
  });
  const idempotency = new Map<string, IdempotentResult>();

  const apiRoutes: [string, RegExp, Handler][] = [
    ['POST', /^\/v1\/checkout\/sessions$/, (_m, p) => api.createSession(p)],
    ['GET', /^\/v1\/checkout\/sessions$/, (_m, p) => api.listSessions(p)],
    ['GET', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)$/, (m, p) => api.retrieveSession(m.id, p)],
    ['GET', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)\/line_items$/, (m, p) => api.listLineItems(m.id, p)],
    ['POST', /^\/v1\/checkout\/sessions\/(?<id>[^/]+)\/expire$/, (m, p, c) => api.expireSession(m.id, p, c)],
    ['GET', /^\/v1\/payment_intents\/(?<id>[^/]+)$/, (m, p) => api.retrievePaymentIntent(m.id, p)],
    ['GET', /^\/v1\/charges\/(?<id>[^/]+)$/, (m, p) => api.retrieveCharge(m.id, p)],
    ['POST', /^\/v1\/refunds$/, (_m, p, c) => api.createRefund(p, c)],
    ['GET', /^\/v1\/refunds$/, (_m, p) => api.listRefunds(p)],
    ['GET', /^\/v1\/refunds\/(?<id>[^/]+)$/, (m, p) => api.retrieveRefund(m.id, p)],
    ['GET', /^\/v1\/events$/, (_m, p) => api.listEvents(p)],
    ['GET', /^\/v1\/events\/(?<id>[^/]+)$/, (m, p) => api.retrieveEvent(m.id, p)],
  ];

  function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string>): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  }

  const sendJson = (res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    send(res, status, `${JSON.stringify(value, null, 2)}\n`, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, no-store',
      ...headers,
    });

  const sendHtml = (res: http.ServerResponse, status: number, html: string, nonce: string) =>
    send(res, status, html, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });

  const redirect = (res: http.ServerResponse, location: string) =>
    send(res, 303, '', { Location: location, 'Cache-Control': 'no-store' });

  /** The body as text; a body over MAX_BODY is Stripe's 413. */
  async function readText(req: http.IncomingMessage): Promise<string> {
    const body = await readBody(req, MAX_BODY);
    if (!body) throw new HttpError(413, 'Request body too large');
    return body.toString('utf8');
  }

  function authenticate(req: http.IncomingMessage): StripeApiError | null {
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
    if (key === publishableKey) {
      return new StripeApiError(
        401,
        'This API call cannot be made with a publishable API key. Please use a secret API key.',
      );
    }
    if (key !== secretKey) {
      const masked =
        key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 24))}${key.slice(-4)}` : '****';
      return new StripeApiError(401, `Invalid API Key provided: ${masked}`, { code: 'api_key_invalid' });
    }
    return null;
  }

  async function handleApi(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    url: URL,
  ): Promise<void> {
    const requestId = randomId('req_', 14);
    const version = typeof req.headers['stripe-version'] === 'string' ? req.headers['stripe-version'] : apiVersion;
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const headers: Record<string, string> = { 'Request-Id': requestId, 'Stripe-Version': version };
    if (key && method === 'POST') headers['Idempotency-Key'] = key;
    const fail = (err: StripeApiError) => sendJson(res, err.status, err.toBody(), headers);

    const authError = authenticate(req);
    if (authError) {
      req.resume();
      return fail(authError);
    }
    const body = method === 'POST' ? await readText(req) : '';
    if (method !== 'POST') req.resume();
    const route = apiRoutes.find(([m, re]) => m === method && re.test(url.pathname));
    if (!route) {
      return fail(
        new StripeApiError(
          404,
          `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        ),
      );
    }

    let fingerprint = '';
    if (key && method === 'POST') {
      fingerprint = `${method} ${url.pathname}\n${body}`;
      const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
      for (const [k, v] of idempotency) if (v.at < cutoff) idempotency.delete(k);
      const prior = idempotency.get(key);
      if (prior) {
        if (prior.fingerprint !== fingerprint) {
          return fail(
            new StripeApiError(
              400,
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              { type: 'idempotency_error' },
            ),
          );
        }
        return send(res, prior.status, prior.body, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-cache, no-store',
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
    send(res, status, text, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, no-store', ...headers });
  }

  function pageNotFound(res: http.ServerResponse): void {
    const o = pageOptions();
    sendHtml(
      res,
      404,
      renderMessagePage(
        {
          title: 'Checkout not found',
          tone: 'warning',
          message: 'This checkout link is not valid. Start the purchase again from the app.',
        },
        o,
      ),
      o.nonce,
    );
  }

  /** The page shown instead of the form when the session cannot be paid any more. */
  function statusPage(res: http.ServerResponse, id: string, httpStatus: number): boolean {
    const rec = api.getSession(id);
    if (!rec) {
      pageNotFound(res);
      return true;
    }
    const s = rec.session;
    if (s.status === 'open') return false;
    const o = pageOptions();
    const sessionView = { session: s, lineItems: rec.line_items, products: rec.products };
    if (s.status === 'complete') {
      const next = api.successRedirect(s);
      sendHtml(
        res,
        httpStatus,
        renderMessagePage(
          {
            title: 'Payment complete',
            tone: 'success',
            message: `This checkout has already been paid${s.customer_details?.email ? ` by ${s.customer_details.email}` : ''}. No further payment is needed.`,
            link: next ? { href: next, label: 'Continue' } : undefined,
            session: sessionView,
          },
          o,
        ),
        o.nonce,
      );
    } else {
      const back = api.cancelRedirect(s);
      sendHtml(
        res,
        httpStatus,
        renderMessagePage(
          {
            title: 'Checkout expired',
            tone: 'warning',
            message:
              'This checkout link has expired and can no longer be paid. Nothing was charged. Start the purchase again from the app.',
            link: back ? { href: back, label: 'Return to the app' } : undefined,
            session: sessionView,
          },
          o,
        ),
        o.nonce,
      );
    }
    return true;
  }

  function showForm(
    res: http.ServerResponse,
    id: string,
    status: number,
    extra: Pick<CheckoutPageInput, 'values' | 'errors'> = {},
  ): void {
    const rec = api.getSession(id);
    if (!rec) {
      pageNotFound(res);
      return;
    }
    const o = pageOptions();
    sendHtml(
      res,
      status,
      renderCheckoutPage(
        { session: rec.session, lineItems: rec.line_items, products: rec.products, nowSec: api.nowSec(), ...extra },
        o,
      ),
      o.nonce,
    );
  }

  async function handlePay(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
    const body = await readText(req);
    const rec = api.getSession(id);
    if (!rec) return pageNotFound(res);
    if (rec.session.status === 'complete') {
      // A repeated submit (double click, back + resubmit): behave like the first one did.
      const next = api.successRedirect(rec.session);
      if (next) return redirect(res, next);
    }
    if (statusPage(res, id, 409)) return;

    const form = parseForm(body);
    const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).trim() : undefined);
    const values = {
      email: field('email'),
      name: field('name'),
      card_number: field('card_number'),
      card_expiry: field('card_expiry'),
      card_cvc: field('card_cvc'),
    };
    const errors: NonNullable<CheckoutPageInput['errors']> = {};
    const email = rec.session.customer_email ?? values.email ?? '';
    if (!email) errors.email = 'Enter your email address.';
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'Your email address is invalid.';
    const cardNumber = values.card_number ?? '4242424242424242';
    const problem = cardProblem(cardNumber);
    if (problem) errors.card_number = problem.message;
    const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.card_expiry ?? '12/34');
    let expMonth = 12;
    let expYear = 2034;
    if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) {
      errors.card_expiry = "Your card's expiration date is incomplete.";
    } else {
      expMonth = Number(expiry[1]);
      expYear = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
      const d = new Date(now());
      if (expYear < d.getUTCFullYear() || (expYear === d.getUTCFullYear() && expMonth < d.getUTCMonth() + 1)) {
        errors.card_expiry = "Your card's expiration date is in the past.";
      }
    }
    if (!/^\d{3,4}$/.test(values.card_cvc ?? '123')) errors.card_cvc = "Your card's security code is incomplete.";
    if (Object.keys(errors).length > 0) return showForm(res, id, 422, { values, errors });

    const result = api.pay(id, { email, name: values.name || null, cardNumber, expMonth, expYear, postalCode: null });
    // Like Stripe, the redirect does not depend on the webhook outcome; waiting for the first attempt just
    // makes it likely the app has processed the payment when the customer lands on the success page.
    await result.delivery;
    const next = api.successRedirect(result.session);
    if (next) return redirect(res, next);
    const o = pageOptions();
    sendHtml(
      res,
      200,
      renderMessagePage(
        {
          title: 'Payment complete',
          tone: 'success',
          message: 'Thanks! Your (simulated) payment went through. You can close this page.',
          session: { session: result.session, lineItems: rec.line_items, products: rec.products },
        },
        o,
      ),
      o.nonce,
    );
  }

  async function handleSimulate(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    url: URL,
  ): Promise<void> {
    const pay = /^\/__simulate\/pay\/([^/]+)$/.exec(url.pathname);
    if (pay && method === 'POST') {
      const body = await readText(req);
      let input: Record<string, unknown> = {};
      if (body.trim()) {
        if (/json/i.test(String(req.headers['content-type'] ?? ''))) {
          try {
            input = JSON.parse(body) as Record<string, unknown>;
          } catch {
            return sendJson(res, 400, new StripeApiError(400, 'Invalid JSON body').toBody());
          }
        } else {
          input = parseForm(body);
        }
      }
      const id = decodeSegment(pay[1]);
      try {
        const rec = api.getSession(id);
        const email =
          (typeof input.email === 'string' && input.email) || rec?.session.customer_email || 'test@example.com';
        const name = typeof input.name === 'string' ? input.name : null;
        const result = api.pay(id, {
          email,
          name,
          cardNumber: '4242424242424242',
          expMonth: 12,
          expYear: 2034,
          postalCode: null,
        });
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
    req.resume();
    if (url.pathname === '/__simulate/events' && method === 'GET') {
      const type = url.searchParams.get('type') ?? undefined;
      return sendJson(res, 200, { object: 'list', data: api.eventLog(type) });
    }
    if (url.pathname === '/__simulate/health' && method === 'GET') return sendJson(res, 200, { ok: true });
    sendJson(res, 404, new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`).toBody());
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname.startsWith('/v1/')) return handleApi(req, res, method, url);
    if (url.pathname.startsWith('/__simulate/')) return handleSimulate(req, res, method, url);
    const page = /^\/pay\/([^/]+)(\/cancel)?\/?$/.exec(url.pathname);
    if (page) {
      const id = decodeSegment(page[1]);
      if (page[2]) {
        req.resume();
        const rec = api.getSession(id);
        if (!rec) return pageNotFound(res);
        return redirect(res, api.cancelRedirect(rec.session) ?? `/pay/${encodeURIComponent(id)}`);
      }
      if (method === 'GET' || method === 'HEAD') {
        req.resume();
        if (statusPage(res, id, 200)) return;
        return showForm(res, id, 200);
      }
      if (method === 'POST') return handlePay(req, res, id);
    }
    req.resume();
    sendJson(
      res,
      404,
      new StripeApiError(
        404,
        `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ).toBody(),
    );
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) log(`error handling ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
      sendJson(res, status, {
        error: {
          type: 'api_error',
          message:
            err instanceof HttpError ? err.message : 'An unexpected error occurred in the local Stripe simulator.',
        },
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const apiHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const urlHost = apiHost.includes(':') ? `[${apiHost}]` : apiHost;
  publicUrl = (opts.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');

  // Catch up with whatever happened while we were down: overdue expiries and unfinished deliveries.
  api.sweepExpired();
  dispatcher?.resume(store.state.events);
  const sweeper = setInterval(() => {
    try {
      api.sweepExpired();
    } catch (err) {
      log(`expiry sweep failed: ${(err as Error).message}`);
    }
  }, opts.expiryCheckIntervalMs ?? 5_000);
  sweeper.unref();

  log(
    `listening on http://${urlHost}:${port} (checkout pages at ${publicUrl}/pay/…; webhooks → ${opts.webhookUrl || '(none)'})`,
  );

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    publicUrl,
    secretKey,
    publishableKey,
    stripeConfig: { host: apiHost, port, protocol: 'http' },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await dispatcher?.close();
        store.save();
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
