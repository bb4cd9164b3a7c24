/** The local Stripe's state: the objects the app reads, in Stripe's shape, and each event's delivery, kept on disk. */
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import type Stripe from 'stripe';
import { writeFileDurably } from '../durable-file';

export type Metadata = Stripe.Metadata;

/** The fields of a Checkout Session the app and its tests read. */
export interface Session {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  customer_details: { email: string; name: string | null } | null;
  metadata: Metadata;
  payment_intent: string | null;
  success_url: string | null;
  cancel_url: string | null;
  created: number;
  expires_at: number;
}

export interface LineItem {
  currency: string;
  name: string;
  description: string | null;
  quantity: number;
  unit_amount: number;
}

/** `98, 'usd'` → `$0.98` (amounts in cents: the shop charges usd). */
export const formatAmount = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

export interface SessionRecord {
  session: Session;
  line_items: LineItem[];
  /** `payment_intent_data.metadata`: the PaymentIntent's metadata once paid. */
  intent_metadata: Metadata;
}

/** A PaymentIntent with its one Charge (`latest_charge`), and a refund of it: the fields the app reads. */
export type PaymentIntent = Pick<
  Stripe.PaymentIntent,
  'id' | 'object' | 'amount' | 'amount_received' | 'currency' | 'status' | 'latest_charge' | 'metadata' | 'created'
>;
export type Refund = Pick<
  Stripe.Refund,
  'id' | 'object' | 'amount' | 'currency' | 'charge' | 'payment_intent' | 'metadata' | 'reason' | 'status' | 'created'
>;

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: unknown };
}

export interface Delivery {
  status: 'pending' | 'delivered' | 'failed';
  /** HTTP status of each attempt (null: no answer). */
  attempts: (number | null)[];
  /** Unix ms of the next attempt while pending. */
  next_attempt_at: number | null;
}

export interface EventRecord {
  event: StripeEvent;
  delivery: Delivery;
}

interface State {
  version: 2;
  sessions: Record<string, SessionRecord>;
  payment_intents: Record<string, PaymentIntent>;
  refunds: Record<string, Refund>;
  events: EventRecord[];
}

/** Events kept; the oldest finished ones go first. */
const MAX_EVENTS = 1000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The entry under `id`, never an inherited property (ids come from requests). */
export const own = <T>(map: Record<string, T>, id: string): T | undefined =>
  Object.hasOwn(map, id) ? map[id] : undefined;

export const randomId = (prefix: string, length = 24) =>
  prefix + Array.from({ length }, () => BASE62[randomInt(62)]).join('');

const empty = (): State => ({ version: 2, sessions: {}, payment_intents: {}, refunds: {}, events: [] });

export class Store {
  readonly state: State;

  constructor(
    private readonly file: string | undefined,
    log: (line: string) => void,
  ) {
    const saved = file && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as State) : null;
    if (saved && saved.version !== 2) log(`${file} is from an older local Stripe: starting with no sessions`);
    this.state = saved?.version === 2 ? saved : empty();
  }

  addEvent(rec: EventRecord): void {
    const events = this.state.events;
    events.push(rec);
    if (events.length <= MAX_EVENTS) return;
    const i = events.findIndex((e) => e.delivery.status !== 'pending');
    events.splice(i === -1 ? 0 : i, 1);
  }

  save(): void {
    if (this.file) writeFileDurably(this.file, JSON.stringify(this.state));
  }
}
