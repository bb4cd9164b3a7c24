import { expandList, type FormObject, invalid, optInt, optString } from './params';
import { type CheckoutSession, type Delivery, type EventRecord, randomId, type Store, type StripeEvent } from './store';
import type { WebhookDispatcher } from './webhooks';

export type Json = Record<string, unknown>;

export const clone = <T>(v: T): T => structuredClone(v);

export interface RequestContext {
  requestId: string | null;
  idempotencyKey: string | null;
}

export interface ApiOptions {
  store: Store;
  /** null when no webhook endpoint is configured: events are recorded but not sent. */
  dispatcher: WebhookDispatcher | null;
  publicUrl: string;
  apiVersion: string;
  /** Event types sent to the endpoint; `'*'` means all. */
  enabledEvents: string[];
  now: () => number;
  log: (line: string) => void;
}

export abstract class StripeCore {
  constructor(protected readonly o: ApiOptions) {}

  protected get state() {
    return this.o.store.state;
  }

  nowSec(): number {
    return Math.floor(this.o.now() / 1000);
  }

  payPageUrl(id: string): string {
    return `${this.o.publicUrl}/pay/${id}`;
  }

  /** A copy of the session as the API shows it; `url` follows the current publicUrl (null once no longer open). */
  view(s: CheckoutSession): CheckoutSession {
    return { ...clone(s), url: s.status === 'open' ? this.payPageUrl(s.id) : null };
  }

  protected emit(
    type: string,
    object: unknown,
    ctx: RequestContext | null,
    previous?: Record<string, unknown>,
  ): { record: EventRecord } {
    const sendable =
      this.o.dispatcher !== null && (this.o.enabledEvents.includes('*') || this.o.enabledEvents.includes(type));
    const event: StripeEvent = {
      id: randomId('evt_', 24),
      object: 'event',
      api_version: this.o.apiVersion,
      created: this.nowSec(),
      data: previous ? { object: clone(object), previous_attributes: previous } : { object: clone(object) },
      livemode: false,
      pending_webhooks: sendable ? 1 : 0,
      request: { id: ctx?.requestId ?? null, idempotency_key: ctx?.idempotencyKey ?? null },
      type,
    };
    const record: EventRecord = {
      event,
      delivery: { status: sendable ? 'pending' : 'disabled', attempts: [], next_attempt_at: null },
    };
    this.o.store.addEvent(record);
    return { record };
  }

  /** Sends a freshly emitted event (call after the state was saved). */
  protected deliver(record: EventRecord): Promise<Delivery> {
    if (!this.o.dispatcher || record.delivery.status !== 'pending') return Promise.resolve(record.delivery);
    return this.o.dispatcher.dispatch(record);
  }

  protected list<T extends { id: string }>(items: T[], params: FormObject, url: string): Json {
    const limit = optInt(params, 'limit', '', { min: 1, max: 100 }) ?? 10;
    const after = optString(params, 'starting_after');
    const before = optString(params, 'ending_before');
    const indexOf = (id: string, param: string) => {
      const i = items.findIndex((x) => x.id === id);
      if (i === -1) throw invalid(`No such object: ${id}`, param, 'resource_missing');
      return i;
    };
    let data: T[];
    let hasMore: boolean;
    if (after !== undefined) {
      const start = indexOf(after, 'starting_after') + 1;
      data = items.slice(start, start + limit);
      hasMore = start + limit < items.length;
    } else if (before !== undefined) {
      const end = indexOf(before, 'ending_before');
      data = items.slice(Math.max(0, end - limit), end);
      hasMore = end - limit > 0;
    } else {
      data = items.slice(0, limit);
      hasMore = items.length > limit;
    }
    const result: Json = { object: 'list', data: clone(data), has_more: hasMore, url };
    const expand = expandList(params);
    for (const path of expand) {
      if (!path.startsWith('data.')) throw invalid(`This property cannot be expanded (${path}).`, 'expand');
      for (const item of result.data as Json[]) this.expand(item, [path.slice(5)]);
    }
    return result;
  }

  protected expand(obj: Json, paths: string[]): Json {
    for (const path of paths) {
      const segs = path.split('.');
      if (segs.length > 4) throw invalid(`You cannot expand more than 4 levels of a property (${path}).`, 'expand');
      this.expandPath(obj, segs, path);
    }
    return obj;
  }

  protected expandPath(target: Json, segs: string[], path: string): void {
    const [field, ...rest] = segs;
    const cannot = () => invalid(`This property cannot be expanded (${path}).`, 'expand');
    let resolved: unknown;
    if (target.object === 'checkout.session' && field === 'line_items') {
      const rec = this.state.sessions[target.id as string];
      resolved =
        target.line_items ??
        (rec
          ? this.list(rec.line_items, Object.create(null), `/v1/checkout/sessions/${rec.session.id}/line_items`)
          : undefined);
    } else if (Object.hasOwn(target, field)) {
      const value = target[field];
      if (value === null) return;
      resolved = typeof value === 'string' ? this.lookup(value) : value;
    }
    if (resolved === undefined || resolved === null || typeof resolved !== 'object') throw cannot();
    target[field] = resolved;
    if (rest.length > 0) {
      if (rest[0] === 'data' && (resolved as Json).object === 'list') {
        for (const item of (resolved as Json).data as Json[])
          if (rest.length > 1) this.expandPath(item, rest.slice(1), path);
      } else {
        this.expandPath(resolved as Json, rest, path);
      }
    }
  }

  protected lookup(id: string): Json | undefined {
    const s = this.state;
    const pick = <T>(m: Record<string, T>) => (Object.hasOwn(m, id) ? (clone(m[id]) as unknown as Json) : undefined);
    if (id.startsWith('pi_')) return pick(s.payment_intents);
    if (id.startsWith('ch_')) return pick(s.charges);
    if (id.startsWith('re_')) return pick(s.refunds);
    if (id.startsWith('cs_'))
      return Object.hasOwn(s.sessions, id) ? (this.view(s.sessions[id].session) as unknown as Json) : undefined;
    return undefined;
  }
}
