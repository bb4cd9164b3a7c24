/**
 * The Charge and PaymentIntent a completed checkout creates, and a Refund of a charge: the objects only (api.ts
 * checks the request, stores them and sends the events).
 */
import { cardBrand } from './cards';
import {
  type Charge,
  type CustomerDetails,
  type PaymentIntent,
  type Refund,
  randomId,
  type SessionRecord,
} from './store';

/** What the customer entered on the checkout page (or the test hook's defaults). */
export interface PaymentDetails {
  email: string;
  name: string | null;
  cardNumber: string;
  expMonth: number;
  expYear: number;
  postalCode: string | null;
}

export function newPayment(
  rec: SessionRecord,
  details: PaymentDetails,
  now: number,
): { charge: Charge; paymentIntent: PaymentIntent; address: CustomerDetails['address'] } {
  const s = rec.session;
  const piId = randomId('pi_', 24);
  const chargeId = randomId('ch_', 24);
  const pmId = randomId('pm_', 24);
  const digits = details.cardNumber.replace(/\D/g, '');
  const address: CustomerDetails['address'] = {
    city: null,
    country: 'US',
    line1: null,
    line2: null,
    postal_code: details.postalCode,
    state: null,
  };
  const piData = rec.payment_intent_data;
  const receiptEmail = piData.receipt_email ?? details.email;

  const charge: Charge = {
    id: chargeId,
    object: 'charge',
    amount: s.amount_total,
    amount_captured: s.amount_total,
    amount_refunded: 0,
    balance_transaction: randomId('txn_', 24),
    billing_details: { address, email: details.email, name: details.name, phone: null },
    captured: true,
    created: now,
    currency: s.currency,
    customer: null,
    description: piData.description,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: { ...piData.metadata },
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: piId,
    payment_method: pmId,
    payment_method_details: {
      type: 'card',
      card: {
        brand: cardBrand(digits),
        country: 'US',
        exp_month: details.expMonth,
        exp_year: details.expYear,
        funding: 'credit',
        last4: digits.slice(-4),
      },
    },
    receipt_email: receiptEmail,
    receipt_url: null,
    refunded: false,
    status: 'succeeded',
  };
  const paymentIntent: PaymentIntent = {
    id: piId,
    object: 'payment_intent',
    amount: s.amount_total,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: s.amount_total,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${piId}_secret_${randomId('', 25)}`,
    confirmation_method: 'automatic',
    created: now,
    currency: s.currency,
    customer: null,
    description: piData.description,
    last_payment_error: null,
    latest_charge: chargeId,
    livemode: false,
    metadata: { ...piData.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: pmId,
    payment_method_types: ['card'],
    processing: null,
    receipt_email: receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    statement_descriptor: piData.statement_descriptor,
    statement_descriptor_suffix: piData.statement_descriptor_suffix,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
  return { charge, paymentIntent, address };
}

/** A succeeded refund of `amount` (minor units) of `charge`. */
export function newRefund(
  charge: Charge,
  amount: number,
  reason: Refund['reason'],
  metadata: Record<string, string>,
  now: number,
): Refund {
  const refund: Refund = {
    id: randomId('re_', 24),
    object: 'refund',
    amount,
    balance_transaction: randomId('txn_', 24),
    charge: charge.id,
    created: now,
    currency: charge.currency,
    destination_details: {
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
      type: 'card',
    },
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  return refund;
}
