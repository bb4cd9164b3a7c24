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
 *              POST|GET /v1/refunds, GET /v1/events/:id (api-routes.ts; the operations in api.ts)
 *   Browser    GET|POST /pay/:id, POST /pay/:id/cancel (checkout-routes.ts, page.ts)
 *   Test hooks POST /__simulate/pay/:id, GET /__simulate/events[?type=] (simulate-routes.ts)
 */

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { LocalStripeApi } from './api';
import { apiHandler } from './api-routes';
import { checkoutPages } from './checkout-routes';
import { HttpError, sendJson, unrecognized } from './http-io';
import { StripeApiError } from './params';
import { simulateHandler } from './simulate-routes';
import { Store } from './store';
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
  const handleApi = apiHandler(api, { secretKey, publishableKey, apiVersion });
  const handlePage = checkoutPages(api, opts.accountName ?? 'ToonZap', now);
  const handleSimulate = simulateHandler(api);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname.startsWith('/v1/')) return handleApi(req, res, method, url);
    if (url.pathname.startsWith('/__simulate/')) return handleSimulate(req, res, method, url);
    if (await handlePage(req, res, method, url)) return;
    req.resume();
    sendJson(res, 404, new StripeApiError(404, unrecognized(method, url.pathname)).toBody());
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
