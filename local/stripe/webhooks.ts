/**
 * Webhook delivery as Stripe does it: the event JSON POSTed with a `Stripe-Signature` header (made by the SDK's
 * `webhooks.generateTestHeaderString`, afresh for each attempt), anything but a 2xx answer (a redirect, a timeout,
 * no connection) a failure retried after the next delay; pending deliveries are resumed after a restart.
 */
import * as http from 'node:http';
import Stripe from 'stripe';
import type { Delivery, EventRecord } from './store';

export interface DispatcherOptions {
  url: string;
  secret: string;
  /** Delay before each retry; as many retries as entries. */
  retryDelaysMs: number[];
  log: (line: string) => void;
  /** Called whenever a delivery record changed (to persist it). */
  onChange: () => void;
}

const TIMEOUT_MS = 10_000;

export class WebhookDispatcher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<http.ClientRequest>();
  private closed = false;

  constructor(private readonly o: DispatcherOptions) {}

  /** Delivers `rec` now; resolves after the first attempt (retries go on in the background). */
  dispatch(rec: EventRecord): Promise<Delivery> {
    return this.attempt(rec).then(() => rec.delivery);
  }

  /** Deliveries still pending when the last process stopped: at their planned time, at most the first delay away. */
  resume(records: EventRecord[]): void {
    for (const rec of records) {
      if (rec.delivery.status !== 'pending') continue;
      const planned = Math.max(0, (rec.delivery.next_attempt_at ?? 0) - Date.now());
      this.schedule(rec, Math.min(planned, this.o.retryDelaysMs[0] ?? 0));
    }
  }

  /** Stops: an attempt cut off stays pending, for the next start to resume. */
  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    for (const req of this.inFlight) req.destroy(new Error('local Stripe is shutting down'));
  }

  private schedule(rec: EventRecord, delayMs: number): void {
    if (this.closed) return;
    const id = rec.event.id;
    clearTimeout(this.timers.get(id));
    const timer = setTimeout(() => {
      this.timers.delete(id);
      void this.attempt(rec);
    }, delayMs);
    timer.unref();
    this.timers.set(id, timer);
  }

  private async attempt(rec: EventRecord): Promise<void> {
    const d = rec.delivery;
    if (this.closed || d.status !== 'pending') return;
    const payload = JSON.stringify(rec.event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.o.secret });
    const status = await this.post(payload, signature);
    if (this.closed && status === null) return;
    d.attempts.push(status);
    const ok = status !== null && status >= 200 && status < 300;
    const delay = ok ? undefined : this.o.retryDelaysMs[d.attempts.length - 1];
    d.status = ok ? 'delivered' : delay === undefined ? 'failed' : 'pending';
    d.next_attempt_at = delay === undefined ? null : Date.now() + delay;
    const outcome = ok ? `delivered (HTTP ${status})` : `failed (${status ?? 'no answer'})`;
    const next = delay === undefined ? '' : `; again in ${delay} ms`;
    this.o.log(`webhook ${rec.event.type} ${rec.event.id} ${outcome}, attempt ${d.attempts.length}${next}`);
    if (delay !== undefined) this.schedule(rec, delay);
    this.o.onChange();
  }

  /** The endpoint's HTTP status, or null when it did not answer. A connection of its own, closed after. */
  private post(payload: string, signature: string): Promise<number | null> {
    return new Promise((resolve) => {
      const body = Buffer.from(payload);
      const req = http.request(this.o.url, {
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(body.length),
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signature,
        },
      });
      this.inFlight.add(req);
      const done = (status: number | null) => {
        this.inFlight.delete(req);
        resolve(status);
      };
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timed out')));
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? null));
        res.on('error', () => done(res.statusCode ?? null));
      });
      req.on('error', () => done(null));
      req.end(body);
    });
  }
}
