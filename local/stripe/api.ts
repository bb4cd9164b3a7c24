/**
 * The Stripe v1 API subset the app uses, operating on the local store: Checkout Sessions
 * (create, retrieve, list, line items, expire), Payment Intents, Charges, Refunds and Events,
 * plus the payment itself (driven by the hosted page or the test hook), expiry, and event emission.
 */

import { clone, type Json, type RequestContext, StripeCore } from './api-core';
import { newSession } from './checkout-session-params';
import { formatAmount } from './money';
import {
  checkKnown,
  expandList,
  type FormObject,
  invalid,
  noSuch,
  optCreatedFilter,
  optEnum,
  optInt,
  optMetadata,
  optObject,
  optString,
  unsupported,
} from './params';
import { newPayment, newRefund, type PaymentDetails } from './payment-objects';
import type {
  Charge,
  CheckoutSession,
  Delivery,
  EventRecord,
  PaymentIntent,
  SessionRecord,
  StripeEvent,
} from './store';

export interface PaymentResult {
  session: CheckoutSession;
  paymentIntent: PaymentIntent;
  event: StripeEvent;
  /** Resolves after the first delivery attempt of `checkout.session.completed`. */
  delivery: Promise<Delivery>;
}

const REFUND_PARAMS = [
  'amount',
  'charge',
  'currency',
  'customer',
  'expand',
  'instructions_email',
  'metadata',
  'origin',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
];
const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'expand'];

export class LocalStripeApi extends StripeCore {
  // ---------------------------------------------------------------- Checkout Sessions

  createSession(params: FormObject): Json {
    const { rec, expand } = newSession(params, this.nowSec());
    const { session } = rec;
    session.url = this.payPageUrl(session.id);
    this.state.sessions[session.id] = rec;
    this.o.store.save();
    const email = session.customer_email;
    this.o.log(
      `checkout session ${session.id} created: ${formatAmount(session.amount_total, session.currency)}${email ? ` for ${email}` : ''} → ${session.url}`,
    );
    return this.expand(this.view(session) as unknown as Json, expand);
  }

  getSession(id: string): SessionRecord | undefined {
    const rec = Object.hasOwn(this.state.sessions, id) ? this.state.sessions[id] : undefined;
    if (rec) this.refreshExpiry(rec);
    return rec;
  }

  private requireSession(id: string): SessionRecord {
    const rec = this.getSession(id);
    if (!rec) throw noSuch('checkout.session', id, 'session', 404);
    return rec;
  }

  retrieveSession(id: string, params: FormObject): Json {
    checkKnown(params, ['expand']);
    const rec = this.requireSession(id);
    return this.expand(this.view(rec.session) as unknown as Json, expandList(params));
  }

  listSessions(params: FormObject): Json {
    checkKnown(params, [
      ...LIST_PARAMS,
      'payment_intent',
      'status',
      'client_reference_id',
      'customer_details',
      'created',
    ]);
    const pi = optString(params, 'payment_intent');
    const status = optEnum(params, 'status', ['open', 'complete', 'expired'] as const);
    const ref = optString(params, 'client_reference_id');
    const cd = optObject(params, 'customer_details');
    const email = cd ? optString(cd, 'email', 'customer_details') : undefined;
    const created = optCreatedFilter(params);
    for (const rec of Object.values(this.state.sessions)) this.refreshExpiry(rec);
    const sessions = Object.values(this.state.sessions)
      .map((r) => this.view(r.session))
      .filter(
        (s) =>
          (pi === undefined || s.payment_intent === pi) &&
          (status === undefined || s.status === status) &&
          created(s.created),
      )
      .filter(
        (s) =>
          (ref === undefined || s.client_reference_id === ref) &&
          (email === undefined || s.customer_details?.email === email),
      )
      .reverse();
    return this.list(sessions, params, '/v1/checkout/sessions');
  }

  listLineItems(id: string, params: FormObject): Json {
    checkKnown(params, LIST_PARAMS);
    const rec = this.requireSession(id);
    return this.list(rec.line_items, params, `/v1/checkout/sessions/${id}/line_items`);
  }

  expireSession(id: string, params: FormObject, ctx: RequestContext): Json {
    checkKnown(params, ['expand']);
    const rec = this.requireSession(id);
    if (rec.session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${rec.session.status}".`,
        'session',
      );
    }
    this.expireRecord(rec, ctx);
    return this.expand(this.view(rec.session) as unknown as Json, expandList(params));
  }

  refreshExpiry(rec: SessionRecord): void {
    if (rec.session.status === 'open' && rec.session.expires_at <= this.nowSec()) this.expireRecord(rec, null);
  }

  /** Expires every open session past its `expires_at`; returns how many. */
  sweepExpired(): number {
    let n = 0;
    for (const rec of Object.values(this.state.sessions)) {
      if (rec.session.status === 'open' && rec.session.expires_at <= this.nowSec()) {
        this.expireRecord(rec, null);
        n++;
      }
    }
    return n;
  }

  private expireRecord(rec: SessionRecord, ctx: RequestContext | null): void {
    rec.session.status = 'expired';
    rec.session.url = null;
    const { record } = this.emit('checkout.session.expired', this.view(rec.session), ctx);
    this.o.store.save();
    this.o.log(`checkout session ${rec.session.id} expired${ctx ? ' (via API)' : ''}`);
    this.deliver(record);
  }

  // ---------------------------------------------------------------- Payment

  /** Completes an open session as if the customer paid. Throws a StripeApiError when it is not open. */
  pay(id: string, details: PaymentDetails): PaymentResult {
    const rec = this.requireSession(id);
    const s = rec.session;
    if (s.status !== 'open') {
      throw invalid(
        s.status === 'complete'
          ? `Checkout Session ${id} has already been paid.`
          : `Checkout Session ${id} has expired.`,
        'session',
        s.status === 'complete' ? 'checkout_session_already_completed' : 'checkout_session_expired',
      );
    }
    const { charge, paymentIntent, address } = newPayment(rec, details, this.nowSec());
    const piId = paymentIntent.id;
    const chargeId = charge.id;
    this.state.charges[chargeId] = charge;
    this.state.payment_intents[piId] = paymentIntent;

    s.status = 'complete';
    s.payment_status = 'paid';
    s.payment_intent = piId;
    s.url = null;
    s.customer_details = {
      address,
      business_name: null,
      email: details.email,
      individual_name: null,
      name: details.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };

    // Real Stripe sends these around the same time, in no guaranteed order.
    const completed = this.emit('checkout.session.completed', this.view(s), null);
    const others = [
      this.emit('charge.succeeded', charge, null),
      this.emit('payment_intent.succeeded', paymentIntent, null),
    ];
    this.o.store.save();
    this.o.log(
      `checkout session ${id} paid: ${formatAmount(s.amount_total, s.currency)} by ${details.email} (${piId})`,
    );
    const delivery = this.deliver(completed.record);
    for (const o of others) this.deliver(o.record);
    return {
      session: this.view(s),
      paymentIntent: clone(paymentIntent),
      event: clone(completed.record.event),
      delivery,
    };
  }

  /** Where the browser goes after paying; `{CHECKOUT_SESSION_ID}` substituted as Stripe does. */
  successRedirect(s: CheckoutSession): string | null {
    return s.success_url ? s.success_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id) : null;
  }

  cancelRedirect(s: CheckoutSession): string | null {
    return s.cancel_url ? s.cancel_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id) : null;
  }

  // ---------------------------------------------------------------- Payment Intents, Charges

  retrievePaymentIntent(id: string, params: FormObject): Json {
    checkKnown(params, ['expand', 'client_secret']);
    const pi = Object.hasOwn(this.state.payment_intents, id) ? this.state.payment_intents[id] : undefined;
    if (!pi) throw noSuch('payment_intent', id, 'intent', 404);
    return this.expand(clone(pi) as unknown as Json, expandList(params));
  }

  retrieveCharge(id: string, params: FormObject): Json {
    checkKnown(params, ['expand']);
    const ch = Object.hasOwn(this.state.charges, id) ? this.state.charges[id] : undefined;
    if (!ch) throw noSuch('charge', id, 'charge', 404);
    return this.expand(clone(ch) as unknown as Json, expandList(params));
  }

  // ---------------------------------------------------------------- Refunds

  createRefund(params: FormObject, ctx: RequestContext): Json {
    checkKnown(params, REFUND_PARAMS);
    for (const p of ['refund_application_fee', 'reverse_transfer'])
      if (params[p] !== undefined && params[p] !== '') throw unsupported(p, 'Connect parameters');
    const customer = optString(params, 'customer');
    if (customer) throw noSuch('customer', customer, 'customer');
    const piId = optString(params, 'payment_intent');
    const chargeId = optString(params, 'charge');
    if (!piId && !chargeId)
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
        'payment_intent',
        'parameter_missing',
      );
    if (piId && chargeId)
      throw invalid('You may only specify one of these parameters: charge, payment_intent.', 'charge');
    let charge: Charge | undefined;
    if (piId) {
      const pi = Object.hasOwn(this.state.payment_intents, piId) ? this.state.payment_intents[piId] : undefined;
      if (!pi) throw noSuch('payment_intent', piId, 'payment_intent');
      charge = this.state.charges[pi.latest_charge];
    } else if (chargeId) {
      charge = Object.hasOwn(this.state.charges, chargeId) ? this.state.charges[chargeId] : undefined;
      if (!charge) throw noSuch('charge', chargeId, 'charge');
    }
    if (!charge) throw invalid('This PaymentIntent does not have a successful charge to refund.', 'payment_intent');
    const currency = optString(params, 'currency');
    if (currency !== undefined && currency.toLowerCase() !== charge.currency) {
      throw invalid(`The currency must match the charge's currency (${charge.currency}).`, 'currency');
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = optInt(params, 'amount', '', { min: 1 }) ?? remaining;
    if (amount > remaining) {
      throw invalid(
        `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
        'amount',
        'amount_too_large',
      );
    }
    const reason = optEnum(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    const metadata = optMetadata(params, 'metadata') ?? {};
    const expand = expandList(params);

    const refund = newRefund(charge, amount, reason, metadata, this.nowSec());
    this.state.refunds[refund.id] = refund;
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    const events = [this.emit('refund.created', refund, ctx), this.emit('charge.refunded', charge, ctx, previous)];
    this.o.store.save();
    this.o.log(`refund ${refund.id}: ${formatAmount(amount, charge.currency)} of ${charge.payment_intent}`);
    for (const e of events) this.deliver(e.record);
    return this.expand(clone(refund) as unknown as Json, expand);
  }

  listRefunds(params: FormObject): Json {
    checkKnown(params, [...LIST_PARAMS, 'payment_intent', 'charge', 'created']);
    const pi = optString(params, 'payment_intent');
    const ch = optString(params, 'charge');
    const created = optCreatedFilter(params);
    const refunds = Object.values(this.state.refunds)
      .filter(
        (r) =>
          (pi === undefined || r.payment_intent === pi) && (ch === undefined || r.charge === ch) && created(r.created),
      )
      .reverse();
    return this.list(refunds, params, '/v1/refunds');
  }

  // ---------------------------------------------------------------- Events

  retrieveEvent(id: string, params: FormObject): Json {
    checkKnown(params, ['expand']);
    const rec = this.state.events.find((e) => e.event.id === id);
    if (!rec) throw noSuch('event', id, 'id', 404);
    return clone(rec.event) as unknown as Json;
  }

  /** For the test hook: every recorded event with its delivery log, oldest first. */
  eventLog(type?: string): EventRecord[] {
    return clone(this.state.events.filter((e) => type === undefined || matchesType(e.event.type, type)));
  }
}

function matchesType(type: string, pattern: string): boolean {
  return pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
}
