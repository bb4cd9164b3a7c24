/**
 * The operations of the local Stripe on its store, as the app's SDK calls them: Checkout Sessions (create, list,
 * retrieve, expire), the payment (from the hosted page or the test hook), PaymentIntents (retrieve) and refunds
 * (create, list), and the events the app's webhook handles. Parameters the app does not send are accepted and
 * ignored; what real Stripe refuses is refused only where the app depends on it (expiry range, refund amounts).
 */
import Stripe from 'stripe';
import { type Form, invalid, StripeApiError } from './http-io';
import {
  type EventRecord,
  formatAmount,
  type LineItem,
  type Metadata,
  own,
  type PaymentIntent,
  type Refund,
  randomId,
  type Session,
  type SessionRecord,
  type Store,
} from './store';
import type { WebhookDispatcher } from './webhooks';

/** Stripe's test card whose payment succeeds and is then disputed as fraudulent (docs.stripe.com/testing#disputes). */
export const DISPUTE_CARD = '4000000000000259';

const DAY_SECONDS = 24 * 3600;

export interface ApiOptions {
  store: Store;
  dispatcher: WebhookDispatcher;
  /** Base URL of the hosted pages (known once the server listens). */
  publicUrl: () => string;
  now: () => number;
  log: (line: string) => void;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Form => (typeof v === 'object' && v ? (v as Form) : Object.create(null));
const metadata = (v: unknown): Metadata =>
  Object.fromEntries(Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === 'string' && !!e[1]));

function int(v: unknown, param: string, min = 0): number {
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min)
    throw invalid(`Invalid integer: ${param} must be a whole number of at least ${min}.`, param);
  return Number(v);
}

/** A line item as the app sends it: inline `price_data` (the stand-in has no catalogue of prices). */
function lineItem(li: Form, at: string): LineItem {
  const price = obj(li.price_data);
  const product = obj(price.product_data);
  const name = str(product.name);
  const currency = str(price.currency);
  if (!name || !currency)
    throw invalid(`${at}: the local Stripe needs price_data with currency and product_data[name].`, at);
  return {
    currency: currency.toLowerCase(),
    name,
    description: str(product.description) ?? null,
    quantity: int(li.quantity, `${at}[quantity]`, 1),
    unit_amount: int(price.unit_amount, `${at}[price_data][unit_amount]`),
  };
}

const noSuch = (kind: string, id: string, param: string, status = 400) =>
  new StripeApiError(status, `No such ${kind}: '${id}'`, { param, code: 'resource_missing' });

export class LocalStripeApi {
  constructor(private readonly o: ApiOptions) {}

  private get state() {
    return this.o.store.state;
  }

  nowSec(): number {
    return Math.floor(this.o.now() / 1000);
  }

  /** The session as the API shows it: `url` while open, at the current address of the pages. */
  view(s: Session): Session & { url: string | null } {
    return { ...structuredClone(s), url: s.status === 'open' ? `${this.o.publicUrl()}/pay/${s.id}` : null };
  }

  createSession(p: Form) {
    const items = Object.values(obj(p.line_items)).map((li, i) => lineItem(obj(li), `line_items[${i}]`));
    if (!items.length) throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    const now = this.nowSec();
    const expiresAt = p.expires_at === undefined ? now + DAY_SECONDS : int(p.expires_at, 'expires_at');
    // Stripe's range; checkout's CHECKOUT_SESSION_SECONDS (domain/orders.ts) is chosen for its lower end.
    if (expiresAt < now + 30 * 60 || expiresAt > now + DAY_SECONDS)
      throw invalid('expires_at must be at least 30 minutes and less than 24 hours from now.', 'expires_at');
    const total = items.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0);
    const session: Session = {
      id: randomId('cs_test_', 58),
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      currency: items[0].currency,
      client_reference_id: str(p.client_reference_id) ?? null,
      customer_email: str(p.customer_email) ?? null,
      customer_details: null,
      metadata: metadata(p.metadata),
      payment_intent: null,
      success_url: str(p.success_url) ?? null,
      cancel_url: str(p.cancel_url) ?? null,
      created: now,
      expires_at: expiresAt,
    };
    this.state.sessions[session.id] = {
      session,
      line_items: items,
      intent_metadata: metadata(obj(p.payment_intent_data).metadata),
    };
    this.o.store.save();
    this.o.log(`checkout session ${session.id} created: ${formatAmount(total, session.currency)}`);
    return this.view(session);
  }

  /** The record of a session, expired first if its time is up. */
  getSession(id: string): SessionRecord | undefined {
    const rec = own(this.state.sessions, id);
    if (rec) this.expireIfDue(rec);
    return rec;
  }

  private requireSession(id: string): SessionRecord {
    const rec = this.getSession(id);
    if (!rec) throw noSuch('checkout.session', id, 'session', 404);
    return rec;
  }

  retrieveSession = (id: string) => this.view(this.requireSession(id).session);

  /** Filtered by `status`, `payment_intent` and `created[gte]` (the reconciler's window); other filters are ignored. */
  listSessions(p: Form) {
    this.sweepExpired();
    const since = Number(obj(p.created).gte ?? 0);
    const sessions = Object.values(this.state.sessions)
      .map((r) => r.session)
      .filter(
        (s) =>
          (!str(p.status) || s.status === p.status) &&
          (!str(p.payment_intent) || s.payment_intent === p.payment_intent) &&
          s.created >= since,
      );
    return this.list(
      sessions.reverse().map((s) => this.view(s)),
      p,
      '/v1/checkout/sessions',
    );
  }

  expireSession(id: string) {
    const rec = this.requireSession(id);
    if (rec.session.status !== 'open')
      throw invalid(`Only open Checkout Sessions can be expired; this one has a status of "${rec.session.status}".`);
    this.expire(rec);
    return this.view(rec.session);
  }

  /** Expires every open session past its `expires_at`. */
  sweepExpired(): void {
    for (const rec of Object.values(this.state.sessions)) this.expireIfDue(rec);
  }

  private expireIfDue(rec: SessionRecord): void {
    if (rec.session.status === 'open' && rec.session.expires_at <= this.nowSec()) this.expire(rec);
  }

  private expire(rec: SessionRecord): void {
    rec.session.status = 'expired';
    this.announce('checkout.session.expired', this.view(rec.session), `checkout session ${rec.session.id} expired`);
  }

  /**
   * Completes an open session as the customer's payment does, and sends `checkout.session.completed`. Paid with
   * DISPUTE_CARD, the payment is disputed right after that event's first delivery (`charge.dispute.created`).
   */
  pay(id: string, payer: { email: string; card: string }) {
    const rec = this.requireSession(id);
    const s = rec.session;
    if (s.status !== 'open')
      throw invalid(`Checkout Session ${id} ${s.status === 'complete' ? 'has already been paid' : 'has expired'}.`);
    const intent: PaymentIntent = {
      id: randomId('pi_'),
      object: 'payment_intent',
      amount: s.amount_total,
      amount_received: s.amount_total,
      currency: s.currency,
      status: 'succeeded',
      latest_charge: randomId('ch_'),
      metadata: { ...rec.intent_metadata },
      created: this.nowSec(),
    };
    this.state.payment_intents[intent.id] = intent;
    Object.assign(s, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: intent.id,
      customer_details: { email: payer.email, name: null },
    });
    const paid = `checkout session ${id} paid: ${formatAmount(s.amount_total, s.currency)} by ${payer.email}`;
    const { event, delivery } = this.announce('checkout.session.completed', this.view(s), paid);
    if (payer.card === DISPUTE_CARD) void delivery.then(() => this.dispute(intent));
    return { session: this.view(s), payment_intent: intent, event, delivery };
  }

  private dispute(intent: PaymentIntent): void {
    const dispute = {
      id: randomId('dp_'),
      object: 'dispute',
      amount: intent.amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    this.announce('charge.dispute.created', dispute, `payment ${intent.id} disputed as fraudulent (${dispute.id})`);
  }

  retrievePaymentIntent(id: string): PaymentIntent {
    const intent = own(this.state.payment_intents, id);
    if (!intent) throw noSuch('payment_intent', id, 'intent', 404);
    return intent;
  }

  /** A refund of a PaymentIntent (the app's only kind); more than is left, or nothing left, fails as on Stripe. */
  createRefund(p: Form): Refund {
    const piId = str(p.payment_intent);
    if (!piId) throw invalid('Missing required param: payment_intent.', 'payment_intent', 'parameter_missing');
    const intent = own(this.state.payment_intents, piId);
    if (!intent) throw noSuch('payment_intent', piId, 'payment_intent');
    const left = intent.amount - this.refunds(piId).reduce((sum, r) => sum + r.amount, 0);
    if (left <= 0)
      throw invalid(`Charge ${intent.latest_charge} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = p.amount === undefined ? left : int(p.amount, 'amount', 1);
    if (amount > left) {
      const [asked, rest] = [amount, left].map((a) => formatAmount(a, intent.currency));
      throw invalid(
        `Refund amount (${asked}) is greater than unrefunded amount on charge (${rest})`,
        'amount',
        'amount_too_large',
      );
    }
    const refund: Refund = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: piId,
      metadata: metadata(p.metadata),
      reason: (str(p.reason) ?? null) as Refund['reason'],
      status: 'succeeded',
      created: this.nowSec(),
    };
    this.state.refunds[refund.id] = refund;
    this.o.store.save();
    this.o.log(`refund ${refund.id}: ${formatAmount(amount, refund.currency)} of ${piId}`);
    return refund;
  }

  listRefunds = (p: Form) => this.list(this.refunds(str(p.payment_intent)).reverse(), p, '/v1/refunds');

  private refunds(paymentIntent: string | undefined): Refund[] {
    return Object.values(this.state.refunds).filter((r) => !paymentIntent || r.payment_intent === paymentIntent);
  }

  /** A page of a list, newest first, as the SDK's auto-pagination reads it (`limit`, `starting_after`). */
  private list<T extends { id: string }>(items: T[], p: Form, url: string) {
    const limit = p.limit === undefined ? 10 : int(p.limit, 'limit', 1);
    const start = str(p.starting_after) ? items.findIndex((x) => x.id === p.starting_after) + 1 : 0;
    return { object: 'list', data: items.slice(start, start + limit), has_more: start + limit < items.length, url };
  }

  /** Records an event with the state that caused it, then sends it; `delivery` settles after the first attempt. */
  private announce(type: string, object: unknown, line: string) {
    const rec: EventRecord = {
      event: {
        id: randomId('evt_'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: this.nowSec(),
        type,
        data: { object },
      },
      delivery: { status: 'pending', attempts: [], next_attempt_at: null },
    };
    this.o.store.addEvent(rec);
    this.o.store.save();
    this.o.log(line);
    return { event: rec.event, delivery: this.o.dispatcher.dispatch(rec) };
  }
}
