/**
 * State of the local Stripe stand-in: Stripe-shaped objects plus bookkeeping, optionally
 * persisted to a JSON file (written atomically: temp file + fsync + rename).
 */
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurably } from '../durable-file';

export type Metadata = Record<string, string>;

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: null;
  metadata: Metadata;
  nickname: null;
  product: string;
  recurring: null;
  tax_behavior: string;
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time';
  unit_amount: number | null;
  unit_amount_decimal: string;
}

export interface LineItem {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

/** Not part of Stripe's line item object; kept so the payment page can show it. */
export interface ProductInfo {
  id: string;
  name: string;
  description: string | null;
  images: string[];
}

export interface CustomerDetails {
  address: { city: null; country: string | null; line1: null; line2: null; postal_code: string | null; state: null };
  business_name: null;
  email: string | null;
  individual_name: null;
  name: string | null;
  phone: null;
  tax_exempt: 'none';
  tax_ids: [];
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  after_expiration: null;
  allow_promotion_codes: boolean | null;
  amount_subtotal: number;
  amount_total: number;
  automatic_tax: { enabled: false; liability: null; provider: null; status: null };
  billing_address_collection: string | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  client_secret: null;
  collected_information: null;
  consent: null;
  consent_collection: null;
  created: number;
  currency: string;
  currency_conversion: null;
  custom_fields: [];
  custom_text: { after_submit: null; shipping_address: null; submit: null; terms_of_service_acceptance: null };
  customer: null;
  customer_creation: 'if_required' | 'always';
  customer_details: CustomerDetails | null;
  customer_email: string | null;
  discounts: [];
  expires_at: number;
  invoice: null;
  invoice_creation: { enabled: false; invoice_data: Record<string, unknown> };
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: 'payment';
  payment_intent: string | null;
  payment_link: null;
  payment_method_collection: 'if_required';
  payment_method_configuration_details: null;
  payment_method_options: Record<string, unknown>;
  payment_method_types: string[];
  payment_status: 'unpaid' | 'paid';
  phone_number_collection: { enabled: boolean };
  recovered_from: null;
  saved_payment_method_options: null;
  setup_intent: null;
  shipping_address_collection: null;
  shipping_cost: null;
  shipping_options: [];
  status: 'open' | 'complete' | 'expired';
  submit_type: string | null;
  subscription: null;
  success_url: string | null;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: string;
  url: string | null;
  wallet_options: null;
}

export interface PaymentIntentData {
  metadata: Metadata;
  description: string | null;
  receipt_email: string | null;
  statement_descriptor: string | null;
  statement_descriptor_suffix: string | null;
}

export interface SessionRecord {
  session: CheckoutSession;
  line_items: LineItem[];
  products: ProductInfo[];
  payment_intent_data: PaymentIntentData;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_details: { tip: Record<string, never> };
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: null;
  canceled_at: null;
  cancellation_reason: null;
  capture_method: 'automatic_async';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  last_payment_error: null;
  latest_charge: string;
  livemode: false;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string;
  payment_method_types: string[];
  processing: null;
  receipt_email: string | null;
  review: null;
  setup_future_usage: null;
  shipping: null;
  statement_descriptor: string | null;
  statement_descriptor_suffix: string | null;
  status: 'succeeded';
  transfer_data: null;
  transfer_group: null;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string;
  billing_details: { address: CustomerDetails['address']; email: string | null; name: string | null; phone: null };
  captured: true;
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  disputed: false;
  failure_code: null;
  failure_message: null;
  livemode: false;
  metadata: Metadata;
  outcome: {
    network_status: 'approved_by_network';
    reason: null;
    risk_level: 'normal';
    seller_message: string;
    type: 'authorized';
  };
  paid: true;
  payment_intent: string;
  payment_method: string;
  payment_method_details: {
    type: 'card';
    card: { brand: string; country: 'US'; exp_month: number; exp_year: number; funding: 'credit'; last4: string };
  };
  receipt_email: string | null;
  receipt_url: null;
  refunded: boolean;
  status: 'succeeded';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: {
    card: { reference_status: 'pending'; reference_type: 'acquirer_reference_number'; type: 'refund' };
    type: 'card';
  };
  metadata: Metadata;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface DeliveryAttempt {
  /** Unix ms, wall clock. */
  at: number;
  /** HTTP status of the endpoint's answer, or null when there was none. */
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Delivery {
  status: 'pending' | 'delivered' | 'failed' | 'disabled';
  attempts: DeliveryAttempt[];
  /** Unix ms of the next scheduled attempt while pending. */
  next_attempt_at: number | null;
}

export interface EventRecord {
  event: StripeEvent;
  delivery: Delivery;
}

export interface State {
  version: 1;
  sessions: Record<string, SessionRecord>;
  payment_intents: Record<string, PaymentIntent>;
  charges: Record<string, Charge>;
  refunds: Record<string, Refund>;
  events: EventRecord[];
}

/** How many events are kept (oldest finished ones are dropped first). */
export const MAX_EVENTS = 1000;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomId(prefix: string, length = 24): string {
  let s = prefix;
  for (let i = 0; i < length; i++) s += BASE62[randomInt(62)];
  return s;
}

export const emptyState = (): State => ({
  version: 1,
  sessions: {},
  payment_intents: {},
  charges: {},
  refunds: {},
  events: [],
});

export class Store {
  state: State;
  private readonly file: string | undefined;

  constructor(file: string | undefined) {
    this.file = file ? path.resolve(file) : undefined;
    this.state = this.load();
  }

  private load(): State {
    if (!this.file || !fs.existsSync(this.file)) return emptyState();
    const text = fs.readFileSync(this.file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`local stripe: cannot parse data file ${this.file}: ${(err as Error).message}`);
    }
    const s = parsed as Partial<State> | null;
    if (!s || typeof s !== 'object' || s.version !== 1) {
      throw new Error(`local stripe: ${this.file} is not a local-stripe data file (version 1)`);
    }
    return {
      version: 1,
      sessions: s.sessions ?? {},
      payment_intents: s.payment_intents ?? {},
      charges: s.charges ?? {},
      refunds: s.refunds ?? {},
      events: Array.isArray(s.events) ? s.events : [],
    };
  }

  addEvent(rec: EventRecord): void {
    const events = this.state.events;
    events.push(rec);
    while (events.length > MAX_EVENTS) {
      const i = events.findIndex((e) => e.delivery.status !== 'pending');
      events.splice(i === -1 ? 0 : i, 1);
    }
  }

  /** Writes the whole state atomically. Synchronous on purpose: a response is only sent after its change is on disk. */
  save(): void {
    if (this.file) writeFileDurably(this.file, JSON.stringify(this.state));
  }
}
