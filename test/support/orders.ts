import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import type { LocalRuntime } from '../../local/runtime';
import { type Api, uploadPhoto, waitForJob } from './api-client';
import { startFaultProxy } from './fault-proxy';

/** Helpers for tests that buy something: moderation, checkout, simulated payment, webhooks, e-mails, executions. */

export async function moderate(client: Api, hashes: string[]): Promise<void> {
  const job = await client.post('/api/process-moderation', { image_hashes: hashes });
  if (job.status !== 200) throw new Error(`moderation: ${job.status} ${JSON.stringify(job.body)}`);
  if ((await waitForJob(client, job.body.job_id)) !== 'SUCCESS') throw new Error('moderation job failed');
}

/** Uploads a photo, moderates it and waits for its previews job to succeed; returns its hash. */
export async function photoWithPreviews(client: Api, bytes: Buffer, type = 'image/png'): Promise<string> {
  const hash = await uploadPhoto(client, bytes, type);
  await moderate(client, [hash]);
  const job = await client.post('/api/process-thumbnail', { image_hash: hash });
  expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
  return hash;
}

export interface Checkout {
  session_id: string;
  order_id: string;
  url: string;
}

export async function checkout(client: Api, email: string, hashes: string[], styles: string[]): Promise<Checkout> {
  const res = await client.post('/api/checkout', { email, hashes, styles });
  if (res.status !== 200) throw new Error(`checkout: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Checkout;
}

/** Pays a session on the local Stripe; its `checkout.session.completed` webhook is delivered before this returns. */
export async function pay(
  runtime: Pick<LocalRuntime, 'stripeUrl'>,
  sessionId: string,
): Promise<{ event: Stripe.Event; delivery: { status: string } }> {
  const res = await fetch(`${runtime.stripeUrl}/__simulate/pay/${encodeURIComponent(sessionId)}`, { method: 'POST' });
  if (!res.ok) throw new Error(`pay: ${res.status} ${await res.text()}`);
  return (await res.json()) as { event: Stripe.Event; delivery: { status: string } };
}

/** The app's own view of Stripe: the real SDK pointed at the local stand-in, with the runtime's keys. */
export function stripeClient(runtime: LocalRuntime): Stripe {
  const url = new URL(runtime.stripeUrl!);
  return new Stripe(runtime.env.STRIPE_SECRET_KEY, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

/** POSTs an event to the webhook route as Stripe would: the JSON body signed with `secret` at `timestamp`. */
export async function deliverWebhook(
  runtime: LocalRuntime,
  payload: string,
  opts: { secret?: string; timestamp?: number; signature?: string } = {},
) {
  const signature =
    opts.signature ??
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? runtime.env.STRIPE_WEBHOOK_SECRET,
      timestamp: opts.timestamp,
    });
  const res = await fetch(`${runtime.url}/api/stripe-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export interface Email {
  to: string[];
  subject: string;
  html: string;
  text: string;
}

/** E-mails the app sent to `to`, from the local SES store. */
export async function emailsTo(runtime: Pick<LocalRuntime, 'mailUrl'>, to: string): Promise<Email[]> {
  const res = await fetch(`${runtime.mailUrl}/store`);
  const store = (await res.json()) as {
    emails: { destination: { to: string[] }; subject: string; body: { html?: string; text?: string } }[];
  };
  return store.emails
    .filter((e) => e.destination.to.includes(to))
    .map((e) => ({ to: e.destination.to, subject: e.subject, html: e.body.html ?? '', text: e.body.text ?? '' }));
}

/** Executions of the order state machine named `name` (the order id). */
export async function orderExecutions(runtime: LocalRuntime, name: string) {
  const machine = runtime.model.stateMachines.find((m) => m.logicalId.startsWith('OrderPipelineOrderMachine'));
  if (!machine) throw new Error('order state machine not in the template');
  const sfn = new SFNClient({
    endpoint: runtime.env.AWS_ENDPOINT_URL_SFN,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  try {
    const res = await sfn.send(new ListExecutionsCommand({ stateMachineArn: machine.arn }));
    return (res.executions ?? []).filter((e) => e.name === name);
  } finally {
    sfn.destroy();
  }
}

/**
 * Polls GET /api/generation/{id} until `done` says so. The default wait is generous: paid renders keep faces
 * (FaceRes calls) and a loaded two-core CI machine runs three test files at once.
 */
export async function waitForGeneration(
  client: Api,
  id: string,
  done: (g: Generation) => boolean = isFinal,
  timeoutMs = 180_000,
): Promise<Generation> {
  const until = Date.now() + timeoutMs;
  let last: Generation | undefined;
  while (Date.now() < until) {
    // A connection error is retried like a poll in a browser would be (e.g. a pooled socket to a stopped server).
    const res = await client.get(`/api/generation/${id}`).catch(() => ({ status: 0, body: null }));
    if (res.status === 200) {
      last = res.body as Generation;
      if (done(last)) return last;
    }
    // Every 500 ms: often enough to see each step, rare enough that the polls of several orders at once do not load
    // the runtime they wait on (the status page polls every 2 s).
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`generation ${id} not done in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

export const isFinal = (g: Generation) => g.status === 'completed' || g.status === 'failed';

export interface Generation {
  status: 'pending' | 'processing' | 'completed' | 'failed';
  progress: number;
  error: string | null;
  images: { url: string; styleName: string; styleId: string; imageHash: string; shareId: string }[];
  refund?: { amount: number; currency: string; items: number };
  failed?: { imageHash: string; styleId: string; error: string | null }[];
  /** Items waiting for capacity (the status page shows the order queued). */
  queued?: number;
  /** The order's receipt lines (domain/order-receipt.ts). */
  receipt?: { label: string; value: string; note?: string; strong?: boolean }[] | null;
}

/**
 * A fault-injecting proxy in front of the engine endpoint (the SageMaker runtime API as the SDK speaks it): requests
 * that write a poisoned output key are answered with SageMaker's ModelError, everything else is passed through.
 * The app under test is unchanged; only the network between it and the engine misbehaves, for chosen items.
 */
export async function startEngineFaults(target: string) {
  const poisoned = new Set<string>();
  const attempts = new Map<string, number>();
  const proxy = await startFaultProxy(target, (_req, body, res) => {
    let keys: string[] = [];
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { outputs?: { key: string }[]; output?: { key: string } };
      keys = [...(parsed.outputs ?? []).map((o) => o.key), ...(parsed.output ? [parsed.output.key] : [])];
    } catch {
      // not JSON: pass it on
    }
    const hit = keys.find((k) => poisoned.has(k));
    if (!hit) return false;
    attempts.set(hit, (attempts.get(hit) ?? 0) + 1);
    const message = 'Injected fault: the model failed on this input.';
    res.writeHead(424, {
      'content-type': 'application/json',
      'x-amzn-errortype': 'ModelError:http://internal.amazon.com/coral/com.amazon.sagemaker/',
    });
    res.end(
      JSON.stringify({
        ErrorCode: 'CLIENT_ERROR_FROM_MODEL',
        OriginalStatusCode: 500,
        OriginalMessage: message,
        Message: message,
      }),
    );
    return true;
  });
  return {
    ...proxy,
    poison: (key: string) => poisoned.add(key),
    attempts: (key: string) => attempts.get(key) ?? 0,
  };
}

/** A DynamoDB document client on the runtime's local tables (dynalite). */
export function tableClient(runtime: Pick<LocalRuntime, 'dynamoUrl'>): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: runtime.dynamoUrl,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    }),
  );
}
