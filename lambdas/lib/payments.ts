import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { secretsManager } from './aws';

/**
 * The Stripe client and webhook secret, built once per container.
 * Keys come from STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET when set, else from the Secrets Manager secret named by
 * STRIPE_SECRET_NAME (JSON {"secretKey", "webhookSecret"}). STRIPE_API_BASE points the client at another API host
 * (e.g. a Stripe-compatible server); unset means api.stripe.com.
 */
export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
}

let cached: { key: string; payments: Promise<Payments> } | undefined;

/**
 * Remade when the variables it is built from change, as the AWS clients are (aws.ts): only when one process starts
 * a second local runtime with a Stripe stand-in of its own (the benchmarks); on AWS they never change.
 */
export function payments(): Promise<Payments> {
  const key = [
    process.env.STRIPE_SECRET_KEY,
    process.env.STRIPE_WEBHOOK_SECRET,
    process.env.STRIPE_SECRET_NAME,
    process.env.STRIPE_API_BASE,
  ].join('\n');
  if (cached?.key !== key) {
    const loading = load().catch((err) => {
      // a failed secret read is retried by the next call, not cached for the container's life
      if (cached?.payments === loading) cached = undefined;
      throw err;
    });
    cached = { key, payments: loading };
  }
  return cached.payments;
}

async function load(): Promise<Payments> {
  let secretKey = process.env.STRIPE_SECRET_KEY;
  let webhookSecret = process.env.STRIPE_WEBHOOK_SECRET;
  if (!secretKey || !webhookSecret) {
    const name = process.env.STRIPE_SECRET_NAME;
    if (!name)
      throw new Error(
        'Stripe is not configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or STRIPE_SECRET_NAME',
      );
    const res = await secretsManager().send(new GetSecretValueCommand({ SecretId: name }));
    let parsed: { secretKey?: unknown; webhookSecret?: unknown };
    try {
      parsed = JSON.parse(res.SecretString ?? '');
    } catch {
      throw new Error(`Secret ${name} is not JSON {"secretKey", "webhookSecret"}`);
    }
    if (typeof parsed.secretKey !== 'string' || typeof parsed.webhookSecret !== 'string') {
      throw new Error(`Secret ${name} must hold string fields secretKey and webhookSecret`);
    }
    secretKey ||= parsed.secretKey;
    webhookSecret ||= parsed.webhookSecret;
  }
  return {
    stripe: new Stripe(secretKey, { ...apiBase(process.env.STRIPE_API_BASE), maxNetworkRetries: 2, timeout: 20_000 }),
    webhookSecret,
  };
}

function apiBase(base: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
