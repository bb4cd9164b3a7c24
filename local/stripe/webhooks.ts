/**
 * Webhook delivery as Stripe does it: the event JSON is POSTed with a `Stripe-Signature` header
 * (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the whsec_ secret>`), any non-2xx
 * answer (or a redirect, timeout or connection error) counts as a failure, and failures are retried
 * with backoff. Each attempt is signed afresh with the current time.
 */
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Delivery, EventRecord } from './store';

export function signPayload(payload: string, secret: string, timestampSec: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSec}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSec},v1=${v1}`;
}

export interface DispatcherOptions {
  url: string;
  secret: string;
  /** Delay before each retry; the number of entries is the number of retries. */
  retryDelaysMs: number[];
  timeoutMs: number;
  log: (line: string) => void;
  /** Called whenever a delivery record changed (to persist it). */
  onChange: () => void;
}

interface PostResult {
  status: number | null;
  error: string | null;
}

export class WebhookDispatcher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<http.ClientRequest>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Starts delivering `rec` now; resolves after the first attempt (retries continue in the background). */
  dispatch(rec: EventRecord): Promise<Delivery> {
    return this.track(this.attempt(rec)).then(() => rec.delivery);
  }

  /**
   * Re-schedules deliveries that were still pending when the previous process stopped: at their planned
   * time, but no later than the first retry delay (a restart is a good moment to catch up).
   */
  resume(records: EventRecord[]): void {
    for (const rec of records) {
      if (rec.delivery.status !== 'pending') continue;
      const planned = Math.max(0, (rec.delivery.next_attempt_at ?? 0) - Date.now());
      const wait = Math.min(planned, this.opts.retryDelaysMs[0] ?? 0);
      this.schedule(rec, wait);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const req of this.inFlight) req.destroy(new Error('local stripe is shutting down'));
    await Promise.allSettled([...this.running]);
  }

  private track(p: Promise<void>): Promise<void> {
    this.running.add(p);
    return p.finally(() => this.running.delete(p));
  }

  private schedule(rec: EventRecord, delayMs: number): void {
    if (this.closed) return;
    const id = rec.event.id;
    clearTimeout(this.timers.get(id));
    const timer = setTimeout(() => {
      this.timers.delete(id);
      void this.track(this.attempt(rec));
    }, delayMs);
    timer.unref();
    this.timers.set(id, timer);
  }

  private async attempt(rec: EventRecord): Promise<void> {
    const d = rec.delivery;
    if (this.closed || d.status !== 'pending') return;
    const payload = JSON.stringify(rec.event, null, 2);
    const started = Date.now();
    const result = await this.post(payload, signPayload(payload, this.opts.secret, Math.floor(started / 1000)));
    if (this.closed && result.status === null) return; // interrupted by close(): stays pending, resumed on next start
    d.attempts.push({ at: started, status: result.status, error: result.error, duration_ms: Date.now() - started });
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const n = d.attempts.length;
    const what = `${rec.event.type} ${rec.event.id}`;
    if (ok) {
      d.status = 'delivered';
      d.next_attempt_at = null;
      this.opts.log(`webhook ${what} delivered (HTTP ${result.status}${n > 1 ? `, attempt ${n}` : ''})`);
    } else if (n <= this.opts.retryDelaysMs.length) {
      const delay = this.opts.retryDelaysMs[n - 1];
      d.next_attempt_at = Date.now() + delay;
      this.opts.log(
        `webhook ${what} failed (${result.error ?? `HTTP ${result.status}`}); retry ${n}/${this.opts.retryDelaysMs.length} in ${delay} ms`,
      );
      this.schedule(rec, delay);
    } else {
      d.status = 'failed';
      d.next_attempt_at = null;
      this.opts.log(
        `webhook ${what} failed (${result.error ?? `HTTP ${result.status}`}); giving up after ${n} attempts`,
      );
    }
    this.opts.onChange();
  }

  private post(payload: string, signature: string): Promise<PostResult> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(this.opts.url);
      } catch {
        resolve({ status: null, error: `invalid webhook URL ${this.opts.url}` });
        return;
      }
      const body = Buffer.from(payload, 'utf8');
      const mod = url.protocol === 'https:' ? https : http;
      let settled = false;
      const done = (r: PostResult) => {
        if (settled) return;
        settled = true;
        this.inFlight.delete(req);
        resolve(r);
      };
      const req = mod.request(url, {
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(body.length),
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Cache-Control': 'no-cache',
          Accept: '*/*; q=0.5, application/xml',
          'Stripe-Signature': signature,
        },
      });
      this.inFlight.add(req);
      req.setTimeout(this.opts.timeoutMs, () => req.destroy(new Error(`timed out after ${this.opts.timeoutMs} ms`)));
      req.on('response', (res) => {
        res.resume(); // the body is irrelevant, but must be drained
        res.on('end', () => done({ status: res.statusCode ?? null, error: null }));
        res.on('error', () => done({ status: res.statusCode ?? null, error: null }));
      });
      req.on('error', (err) => done({ status: null, error: err.message || String(err) }));
      req.end(body);
    });
  }
}
