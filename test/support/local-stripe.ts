/**
 * The local Stripe stand-in's test kit (test/local/stripe.test.ts): a webhook receiver that verifies signatures as
 * the app must, the SDK client as the app builds it, a typical create-session request, and small waits.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { LocalStripe } from '../../local/stripe/server';

export const WEBHOOK_SECRET = 'whsec_test_toonzap_local_0123456789abcdef';

interface Received {
  event: Stripe.Event;
  raw: string;
  signature: string;
  /** HTTP status the receiver answered with. */
  answered: number;
}

/** A tiny webhook endpoint that verifies signatures like the app must. */
export async function startReceiver() {
  const verifier = new Stripe('sk_test_unused');
  const received: Received[] = [];
  const rejected: string[] = [];
  /** Session ids whose first `checkout.session.completed` delivery is answered with a 500. */
  const failFirstCompletedFor = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = String(req.headers['stripe-signature'] ?? '');
      let event: Stripe.Event;
      try {
        event = verifier.webhooks.constructEvent(raw, signature, WEBHOOK_SECRET);
      } catch (err) {
        rejected.push((err as Error).message);
        res.writeHead(400).end('bad signature');
        return;
      }
      let answered = 200;
      const obj = event.data.object as { id?: string };
      if (event.type === 'checkout.session.completed' && obj.id && failFirstCompletedFor.has(obj.id)) {
        failFirstCompletedFor.delete(obj.id);
        answered = 500;
      }
      received.push({ event, raw: raw.toString('utf8'), signature, answered });
      res
        .writeHead(answered, { 'Content-Type': 'application/json' })
        .end(answered === 200 ? '{"received":true}' : '{"error":"boom"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api/stripe/webhook`,
    received,
    rejected,
    failFirstCompletedFor,
    accepted: (type: string, objectId: string) =>
      received.filter(
        (r) => r.answered === 200 && r.event.type === type && (r.event.data.object as { id?: string }).id === objectId,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function waitFor<T>(fn: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a browser would submit: every input of the pay form with its current value. */
export function formValues(html: string): URLSearchParams {
  const form = /<form method="post" action="\/pay\/[^"]+" id="pay-form"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
  const params = new URLSearchParams();
  for (const m of form.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(m[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name)
      params.set(
        name,
        value
          .replace(/&amp;/g, '&')
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&#39;/g, "'"),
      );
  }
  return params;
}

/** How the app constructs its client when given a custom API base. */
export const clientConfig = (ls: LocalStripe) => {
  const { hostname, port } = new URL(ls.url);
  return { host: hostname, port: Number(port), protocol: 'http' as const };
};
export const clientFor = (ls: LocalStripe) => new Stripe(ls.secretKey, { ...clientConfig(ls), maxNetworkRetries: 0 });

export function sessionParams(
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 2,
        price_data: {
          currency: 'usd',
          unit_amount: 499,
          product_data: { name: 'Cartoon <pack> & more', description: 'Ten cartoon styles' },
        },
      },
    ],
    customer_email: 'ada@example.com',
    client_reference_id: 'order_42',
    metadata: { orderId: 'order_42', userId: 'user_7' },
    payment_intent_data: { metadata: { orderId: 'order_42' } },
    success_url: 'http://localhost:3000/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/checkout/cancelled',
    ...overrides,
  };
}

export async function expectStripeError(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(Stripe.errors.StripeError);
    return err as Stripe.errors.StripeError;
  }
  throw new Error('expected the Stripe call to fail');
}
