/**
 * The local Stripe of payment mode `simulated`: the part of Stripe's v1 API the app's SDK calls, the hosted test
 * checkout page, and signed webhooks with retries, so the app keeps the real `stripe` SDK and its webhook route.
 *
 *   API        POST|GET /v1/checkout/sessions, GET /v1/checkout/sessions/:id, POST …/:id/expire,
 *              GET /v1/payment_intents/:id, POST|GET /v1/refunds (api.ts)
 *   Browser    GET|POST /pay/:id, POST /pay/:id/cancel (page.ts)
 *   Test hook  POST /__simulate/pay/:id: pays with the test card, answers {event, session, payment_intent, delivery}
 */
import * as http from 'node:http';
import { type Running, serve } from '../serve';
import { LocalStripeApi } from './api';
import { type Form, parseForm, readText, StripeApiError, send, sendJson } from './http-io';
import { checkoutPages } from './page';
import { Store } from './store';
import { WebhookDispatcher } from './webhooks';

export interface LocalStripeOptions {
  /** Where events are POSTed (the app's webhook route). */
  webhookUrl: string;
  /** The endpoint's signing secret (whsec_…), as the app would get it from the Stripe dashboard. */
  webhookSecret: string;
  /** JSON file holding sessions, payments, refunds and events across restarts. */
  dataFile?: string;
  /** Delays before each webhook retry; default 1 s, 5 s, 30 s, 2 min, 10 min. */
  webhookRetryDelaysMs?: number[];
  /** How often sessions past `expires_at` are expired (they are also checked on every access); default 5 s. */
  expiryCheckIntervalMs?: number;
  /** Clock (Unix ms) of the objects and their expiry, for tests; webhook signatures use the wall clock. */
  now?: () => number;
  log?: (line: string) => void;
}

/** Its `url` is the base URL of the API and the pages, e.g. http://127.0.0.1:4242. */
export interface LocalStripe extends Running {
  secretKey: string;
}

const SECRET_KEY = 'sk_test_toonzap_local_simulated';
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

type Route = [string, RegExp, (api: LocalStripeApi, id: string, p: Form) => unknown];

/** The calls the app makes (lambdas/routes/checkout.ts, the reconciler, refunds, the dispute lookup) and its tests. */
const ROUTES: Route[] = [
  ['POST', /^\/v1\/checkout\/sessions$/, (api, _, p) => api.createSession(p)],
  ['GET', /^\/v1\/checkout\/sessions$/, (api, _, p) => api.listSessions(p)],
  ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (api, id) => api.retrieveSession(id)],
  ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (api, id) => api.expireSession(id)],
  ['GET', /^\/v1\/payment_intents\/([^/]+)$/, (api, id) => api.retrievePaymentIntent(id)],
  ['POST', /^\/v1\/refunds$/, (api, _, p) => api.createRefund(p)],
  ['GET', /^\/v1\/refunds$/, (api, _, p) => api.listRefunds(p)],
];

const unrecognized = (method: string, path: string) =>
  new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);

export async function startLocalStripe(opts: LocalStripeOptions): Promise<LocalStripe> {
  const log = opts.log ?? ((line: string) => console.log(`[stripe-local] ${line}`));
  const store = new Store(opts.dataFile, log);
  const dispatcher = new WebhookDispatcher({
    url: opts.webhookUrl,
    secret: opts.webhookSecret,
    retryDelaysMs: opts.webhookRetryDelaysMs ?? [1_000, 5_000, 30_000, 120_000, 600_000],
    log,
    onChange: () => store.save(),
  });
  let url = '';
  const api = new LocalStripeApi({ store, dispatcher, publicUrl: () => url, now: opts.now ?? Date.now, log });
  const pages = checkoutPages(api);
  /** Idempotency-Key → the first answer to it, replayed to a retry with the same request (as Stripe does, 24 h). */
  const answered = new Map<string, { request: string; status: number; body: unknown; at: number }>();

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, method: string, target: URL) {
    const path = target.pathname;
    const body = method === 'POST' ? await readText(req) : '';
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      throw new StripeApiError(401, 'Invalid API Key provided.', { code: 'api_key_invalid' });
    const route = ROUTES.find(([m, re]) => m === method && re.test(path));
    if (!route) throw unrecognized(method, path);
    const key = method === 'POST' ? String(req.headers['idempotency-key'] ?? '') || null : null;
    const request = `${path}\n${body}`;
    for (const [k, v] of answered) if (v.at < Date.now() - IDEMPOTENCY_TTL_MS) answered.delete(k);
    const prior = key ? answered.get(key) : undefined;
    if (prior && prior.request !== request)
      throw new StripeApiError(400, `Keys for idempotent requests can only be used with the same parameters.`, {
        type: 'idempotency_error',
      });
    if (prior) return sendJson(res, prior.status, prior.body, { 'Idempotent-Replayed': 'true' });
    const params = parseForm(method === 'POST' ? body : target.search.slice(1));
    let status = 200;
    let result: unknown;
    try {
      const id = decodeURIComponent(route[1].exec(path)?.[1] ?? '');
      result = route[2](api, id, params);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      [status, result] = [err.status, err.toBody()];
    }
    if (key) answered.set(key, { request, status, body: result, at: Date.now() });
    sendJson(res, status, result);
  }

  async function handleSimulatedPayment(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    req.resume();
    const email = api.getSession(id)?.session.customer_email ?? 'test@example.com';
    const paid = api.pay(id, { email, card: '4242424242424242' });
    sendJson(res, 200, { ...paid, delivery: await paid.delivery });
  }

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const target = new URL(req.url ?? '/', 'http://local');
    const path = target.pathname;
    const simulated = /^\/__simulate\/pay\/([^/]+)$/.exec(path);
    (async () => {
      if (path.startsWith('/v1/')) return handleApi(req, res, method, target);
      if (simulated && method === 'POST') return handleSimulatedPayment(req, res, decodeURIComponent(simulated[1]));
      if (!(await pages(req, res, method, path))) throw unrecognized(method, path);
    })().catch((err: unknown) => {
      req.resume();
      if (err instanceof StripeApiError) return sendJson(res, err.status, err.toBody());
      log(`error handling ${method} ${req.url}: ${(err as Error)?.stack ?? err}`);
      send(res, 500, 'local Stripe error', { 'Content-Type': 'text/plain' });
    });
  });
  const running = await serve(server);
  url = running.url;

  // Catch up with what happened while stopped: overdue expiries, unfinished deliveries.
  api.sweepExpired();
  dispatcher.resume(store.state.events);
  const sweeper = setInterval(() => api.sweepExpired(), opts.expiryCheckIntervalMs ?? 5_000);
  sweeper.unref();
  log(`listening on ${url} (checkout pages at ${url}/pay/…; webhooks → ${opts.webhookUrl})`);

  return {
    url,
    secretKey: SECRET_KEY,
    async close() {
      clearInterval(sweeper);
      dispatcher.close();
      store.save();
      await running.close();
    },
  };
}
