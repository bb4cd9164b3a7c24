/**
 * A new Checkout Session from the create request's parameters, checked as Stripe checks them: unknown parameters
 * fail, parameters that would change what is charged fail with "not supported", cosmetic ones are accepted.
 */
import { parseLineItems } from './line-item-params';
import { formatAmount, MAX_AMOUNT, minimumAmount } from './money';
import * as param from './params';
import { type CheckoutSession, type PaymentIntentData, randomId, type SessionRecord } from './store';

const SESSION_PARAMS = [
  'adaptive_pricing',
  'after_expiration',
  'allow_promotion_codes',
  'allowed_payment_method_types',
  'automatic_tax',
  'billing_address_collection',
  'branding_settings',
  'cancel_url',
  'client_reference_id',
  'consent_collection',
  'currency',
  'custom_fields',
  'custom_text',
  'customer',
  'customer_account',
  'customer_creation',
  'customer_email',
  'customer_update',
  'discounts',
  'excluded_payment_method_types',
  'expand',
  'expires_at',
  'integration_identifier',
  'invoice_creation',
  'line_items',
  'locale',
  'managed_payments',
  'metadata',
  'mode',
  'name_collection',
  'optional_items',
  'origin_context',
  'payment_intent_data',
  'payment_method_collection',
  'payment_method_configuration',
  'payment_method_data',
  'payment_method_options',
  'payment_method_types',
  'permissions',
  'phone_number_collection',
  'redirect_on_completion',
  'return_url',
  'saved_payment_method_options',
  'setup_intent_data',
  'shipping_address_collection',
  'shipping_options',
  'submit_type',
  'subscription_data',
  'success_url',
  'tax_id_collection',
  'ui_mode',
  'wallet_options',
] as const;

/** Accepted by real Stripe but changing what is charged or collected; rejected loudly instead of silently ignored. */
const SESSION_PARAMS_UNSUPPORTED = [
  'custom_fields',
  'optional_items',
  'shipping_options',
  'subscription_data',
  'setup_intent_data',
];

const PAYMENT_INTENT_DATA_PARAMS = [
  'application_fee_amount',
  'capture_method',
  'description',
  'metadata',
  'on_behalf_of',
  'receipt_email',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
];
const DAY = 24 * 60 * 60;

/** The session record a create request describes (its `url` is set by the caller, which knows the public URL). */
export function newSession(params: param.FormObject, now: number): { rec: SessionRecord; expand: string[] } {
  param.checkKnown(params, SESSION_PARAMS);
  for (const p of SESSION_PARAMS_UNSUPPORTED)
    if (params[p] !== undefined && params[p] !== '') throw param.unsupported(p);

  const mode = param.optEnum(params, 'mode', ['payment', 'setup', 'subscription'] as const) ?? 'payment';
  if (mode !== 'payment') throw param.unsupported('mode', `\`mode=${mode}\` (only \`payment\`)`);
  const uiMode = param.optString(params, 'ui_mode');
  if (uiMode !== undefined && uiMode !== 'hosted_page' && uiMode !== 'hosted') {
    throw param.unsupported('ui_mode', `\`ui_mode=${uiMode}\` (only the hosted page)`);
  }
  const customer = param.optString(params, 'customer');
  if (customer) throw param.noSuch('customer', customer, 'customer');
  const customerAccount = param.optString(params, 'customer_account');
  if (customerAccount) throw param.noSuch('account', customerAccount, 'customer_account');
  const discounts = param.optArray(params, 'discounts');
  discounts?.forEach((d, i) => {
    if (typeof d !== 'object') throw param.invalid('Invalid hash', `discounts[${i}]`);
    const coupon = param.optString(d, 'coupon', `discounts[${i}]`);
    if (coupon) throw param.noSuch('coupon', coupon, `discounts[${i}][coupon]`);
    const promo = param.optString(d, 'promotion_code', `discounts[${i}]`);
    if (promo) throw param.noSuch('promotion code', promo, `discounts[${i}][promotion_code]`);
  });

  const { lineItems, products, currency } = parseLineItems(params, now);
  const amount = lineItems.reduce((sum, li) => sum + li.amount_total, 0);
  const min = minimumAmount(currency);
  if (min !== undefined && amount < min) {
    throw param.invalid(
      `The Checkout Session's total amount due must add up to at least ${formatAmount(min, currency)} ${currency}`,
      'line_items',
      'amount_too_small',
    );
  }
  if (amount > MAX_AMOUNT) {
    throw param.invalid(
      `The Checkout Session's total amount due must be no more than ${formatAmount(MAX_AMOUNT, currency)}.`,
      'line_items',
      'amount_too_large',
    );
  }

  const successUrl = param.optString(params, 'success_url');
  if (successUrl !== undefined && !param.isHttpUrl(successUrl))
    throw param.invalid('Not a valid URL', 'success_url', 'url_invalid');
  const cancelUrl = param.optString(params, 'cancel_url');
  if (cancelUrl !== undefined && !param.isHttpUrl(cancelUrl))
    throw param.invalid('Not a valid URL', 'cancel_url', 'url_invalid');
  const customerEmail = param.optString(params, 'customer_email', '', 512);
  if (customerEmail !== undefined && !param.isEmail(customerEmail)) {
    throw param.invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');
  }
  const clientReferenceId = param.optString(params, 'client_reference_id', '', 200);
  const metadata = param.optMetadata(params, 'metadata') ?? {};

  const expiresAt = param.optInt(params, 'expires_at') ?? now + DAY;
  if (expiresAt - now < 30 * 60) {
    throw param.invalid(
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
      'expires_at',
    );
  }
  if (expiresAt - now > DAY) {
    throw param.invalid(
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
      'expires_at',
    );
  }

  const piData = parsePaymentIntentData(params);
  const submitType =
    param.optEnum(params, 'submit_type', ['auto', 'book', 'donate', 'pay', 'subscribe'] as const) ?? null;
  const locale = param.optString(params, 'locale') ?? null;
  const allowPromotionCodes = param.optBool(params, 'allow_promotion_codes') ?? null;
  const billing = param.optEnum(params, 'billing_address_collection', ['auto', 'required'] as const) ?? null;
  const customerCreation =
    param.optEnum(params, 'customer_creation', ['always', 'if_required'] as const) ?? 'if_required';
  const phone = param.optObject(params, 'phone_number_collection');
  const expand = param.expandList(params);

  const session: CheckoutSession = {
    id: randomId('cs_test_', 58),
    object: 'checkout.session',
    after_expiration: null,
    allow_promotion_codes: allowPromotionCodes,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: billing,
    cancel_url: cancelUrl ?? null,
    client_reference_id: clientReferenceId ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_creation: customerCreation,
    customer_details: null,
    customer_email: customerEmail ?? null,
    discounts: [],
    expires_at: expiresAt,
    invoice: null,
    invoice_creation: {
      enabled: false,
      invoice_data: {
        account_tax_ids: null,
        custom_fields: null,
        description: null,
        footer: null,
        issuer: null,
        metadata: {},
        rendering_options: null,
      },
    },
    livemode: false,
    locale,
    metadata,
    mode: 'payment',
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    phone_number_collection: {
      enabled: phone ? param.optBool(phone, 'enabled', 'phone_number_collection') === true : false,
    },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: submitType,
    subscription: null,
    success_url: successUrl ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: null,
    wallet_options: null,
  };
  return { rec: { session, line_items: lineItems, products, payment_intent_data: piData }, expand };
}

function parsePaymentIntentData(params: param.FormObject): PaymentIntentData {
  const pid = param.optObject(params, 'payment_intent_data');
  const result: PaymentIntentData = {
    metadata: {},
    description: null,
    receipt_email: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
  };
  if (!pid) return result;
  const p = 'payment_intent_data';
  param.checkKnown(pid, PAYMENT_INTENT_DATA_PARAMS, p);
  for (const connect of ['application_fee_amount', 'on_behalf_of', 'transfer_data']) {
    if (pid[connect] !== undefined && pid[connect] !== '')
      throw param.unsupported(`${p}[${connect}]`, 'Connect parameters');
  }
  const capture = param.optEnum(pid, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const, p);
  if (capture === 'manual') throw param.unsupported(`${p}[capture_method]`, 'manual capture');
  const receiptEmail = param.optString(pid, 'receipt_email', p, 512);
  if (receiptEmail !== undefined && !param.isEmail(receiptEmail)) {
    throw param.invalid(`Invalid email address: ${receiptEmail}`, `${p}[receipt_email]`, 'email_invalid');
  }
  result.metadata = param.optMetadata(pid, 'metadata', p) ?? {};
  result.description = param.optString(pid, 'description', p, 1000) ?? null;
  result.receipt_email = receiptEmail ?? null;
  result.statement_descriptor = param.optString(pid, 'statement_descriptor', p, 22) ?? null;
  result.statement_descriptor_suffix = param.optString(pid, 'statement_descriptor_suffix', p, 22) ?? null;
  return result;
}

/** The record, after applying expiry if its time has come. */
