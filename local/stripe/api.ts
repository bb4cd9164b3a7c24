/**
 * The Stripe v1 API subset the app uses, operating on the local store: Checkout Sessions
 * (create, retrieve, list, line items, expire), Payment Intents, Charges, Refunds and Events,
 * plus the payment itself (driven by the hosted page or the test hook), expiry, and event emission.
 */
import { formatAmount, isSupportedCurrency, MAX_AMOUNT, minimumAmount } from './money';
import {
  checkKnown,
  expandList,
  type FormObject,
  invalid,
  isEmail,
  isHttpUrl,
  missing,
  noSuch,
  optArray,
  optBool,
  optCreatedFilter,
  optEnum,
  optInt,
  optMetadata,
  optObject,
  optString,
  reqString,
  type StripeApiError,
} from './params';
import {
  type Charge,
  type CheckoutSession,
  type CustomerDetails,
  type Delivery,
  type EventRecord,
  type LineItem,
  type PaymentIntent,
  type PaymentIntentData,
  type ProductInfo,
  type Refund,
  randomId,
  type SessionRecord,
  type Store,
  type StripeEvent,
} from './store';
import type { WebhookDispatcher } from './webhooks';

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

export interface PaymentDetails {
  email: string;
  name: string | null;
  cardNumber: string;
  expMonth: number;
  expYear: number;
  postalCode: string | null;
}

export interface PaymentResult {
  session: CheckoutSession;
  paymentIntent: PaymentIntent;
  event: StripeEvent;
  /** Resolves after the first delivery attempt of `checkout.session.completed`. */
  delivery: Promise<Delivery>;
}

type Json = Record<string, unknown>;

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
const LINE_ITEM_PARAMS = [
  'adjustable_quantity',
  'dynamic_tax_rates',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
];
const PRICE_DATA_PARAMS = [
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
  'unit_amount_decimal',
];
const PRODUCT_DATA_PARAMS = ['description', 'images', 'metadata', 'name', 'tax_code', 'tax_details', 'unit_label'];
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

const DAY = 24 * 60 * 60;

const unsupported = (param: string, what = `\`${param}\``): StripeApiError =>
  invalid(
    `The local Stripe simulator does not support ${what}. Extend local/stripe/ or use payment mode 'stripe'.`,
    param,
  );

const clone = <T>(v: T): T => structuredClone(v);

export class LocalStripeApi {
  constructor(private readonly o: ApiOptions) {}

  private get state() {
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

  // ---------------------------------------------------------------- Checkout Sessions

  createSession(params: FormObject): Json {
    checkKnown(params, SESSION_PARAMS);
    for (const p of SESSION_PARAMS_UNSUPPORTED) if (params[p] !== undefined && params[p] !== '') throw unsupported(p);
    const now = this.nowSec();

    const mode = optEnum(params, 'mode', ['payment', 'setup', 'subscription'] as const) ?? 'payment';
    if (mode !== 'payment') throw unsupported('mode', `\`mode=${mode}\` (only \`payment\`)`);
    const uiMode = optString(params, 'ui_mode');
    if (uiMode !== undefined && uiMode !== 'hosted_page' && uiMode !== 'hosted') {
      throw unsupported('ui_mode', `\`ui_mode=${uiMode}\` (only the hosted page)`);
    }
    const customer = optString(params, 'customer');
    if (customer) throw noSuch('customer', customer, 'customer');
    const customerAccount = optString(params, 'customer_account');
    if (customerAccount) throw noSuch('account', customerAccount, 'customer_account');
    const discounts = optArray(params, 'discounts');
    discounts?.forEach((d, i) => {
      if (typeof d !== 'object') throw invalid('Invalid hash', `discounts[${i}]`);
      const coupon = optString(d, 'coupon', `discounts[${i}]`);
      if (coupon) throw noSuch('coupon', coupon, `discounts[${i}][coupon]`);
      const promo = optString(d, 'promotion_code', `discounts[${i}]`);
      if (promo) throw noSuch('promotion code', promo, `discounts[${i}][promotion_code]`);
    });

    const { lineItems, products, currency } = this.parseLineItems(params, now);
    const amount = lineItems.reduce((sum, li) => sum + li.amount_total, 0);
    const min = minimumAmount(currency);
    if (min !== undefined && amount < min) {
      throw invalid(
        `The Checkout Session's total amount due must add up to at least ${formatAmount(min, currency)} ${currency}`,
        'line_items',
        'amount_too_small',
      );
    }
    if (amount > MAX_AMOUNT) {
      throw invalid(
        `The Checkout Session's total amount due must be no more than ${formatAmount(MAX_AMOUNT, currency)}.`,
        'line_items',
        'amount_too_large',
      );
    }

    const successUrl = optString(params, 'success_url');
    if (successUrl !== undefined && !isHttpUrl(successUrl))
      throw invalid('Not a valid URL', 'success_url', 'url_invalid');
    const cancelUrl = optString(params, 'cancel_url');
    if (cancelUrl !== undefined && !isHttpUrl(cancelUrl)) throw invalid('Not a valid URL', 'cancel_url', 'url_invalid');
    const customerEmail = optString(params, 'customer_email', '', 512);
    if (customerEmail !== undefined && !isEmail(customerEmail)) {
      throw invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');
    }
    const clientReferenceId = optString(params, 'client_reference_id', '', 200);
    const metadata = optMetadata(params, 'metadata') ?? {};

    const expiresAt = optInt(params, 'expires_at') ?? now + DAY;
    if (expiresAt - now < 30 * 60) {
      throw invalid(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        'expires_at',
      );
    }
    if (expiresAt - now > DAY) {
      throw invalid(
        'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }

    const piData = this.parsePaymentIntentData(params);
    const submitType = optEnum(params, 'submit_type', ['auto', 'book', 'donate', 'pay', 'subscribe'] as const) ?? null;
    const locale = optString(params, 'locale') ?? null;
    const allowPromotionCodes = optBool(params, 'allow_promotion_codes') ?? null;
    const billing = optEnum(params, 'billing_address_collection', ['auto', 'required'] as const) ?? null;
    const customerCreation = optEnum(params, 'customer_creation', ['always', 'if_required'] as const) ?? 'if_required';
    const phone = optObject(params, 'phone_number_collection');
    const expand = expandList(params);

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
        enabled: phone ? optBool(phone, 'enabled', 'phone_number_collection') === true : false,
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
    session.url = this.payPageUrl(session.id);
    const rec: SessionRecord = { session, line_items: lineItems, products, payment_intent_data: piData };
    this.state.sessions[session.id] = rec;
    this.o.store.save();
    this.o.log(
      `checkout session ${session.id} created: ${formatAmount(amount, currency)}${customerEmail ? ` for ${customerEmail}` : ''} → ${session.url}`,
    );
    return this.expand(this.view(session) as unknown as Json, expand);
  }

  private parseLineItems(
    params: FormObject,
    now: number,
  ): { lineItems: LineItem[]; products: ProductInfo[]; currency: string } {
    const items = optArray(params, 'line_items');
    if (!items || items.length === 0) throw missing('line_items');
    if (items.length > 100) throw invalid('`line_items` must have at most 100 items.', 'line_items');
    const lineItems: LineItem[] = [];
    const products: ProductInfo[] = [];
    let currency: string | undefined;
    items.forEach((item, i) => {
      const p = `line_items[${i}]`;
      if (typeof item !== 'object') throw invalid('Invalid hash', p);
      checkKnown(item, LINE_ITEM_PARAMS, p);
      const priceId = optString(item, 'price', p);
      if (priceId) throw noSuch('price', priceId, `${p}[price]`);
      const taxRates = optArray(item, 'tax_rates', p);
      if (taxRates?.length) throw noSuch('tax_rate', String(taxRates[0]), `${p}[tax_rates][0]`);
      const pd = optObject(item, 'price_data', p);
      if (!pd)
        throw invalid(`You must specify either \`price\` or \`price_data\` in \`${p}\`.`, p, 'parameter_missing');
      const pp = `${p}[price_data]`;
      checkKnown(pd, PRICE_DATA_PARAMS, pp);
      const cur = reqString(pd, 'currency', pp).toLowerCase();
      if (!isSupportedCurrency(cur)) throw invalid(`Invalid currency: ${cur}.`, `${pp}[currency]`);
      if (currency !== undefined && cur !== currency) {
        throw invalid('All line items must use the same currency.', `${pp}[currency]`);
      }
      currency = cur;
      if (pd.recurring !== undefined && pd.recurring !== '') {
        throw invalid(
          'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
          `${pp}[recurring]`,
        );
      }
      const productId = optString(pd, 'product', pp);
      if (productId) throw noSuch('product', productId, `${pp}[product]`);
      const prod = optObject(pd, 'product_data', pp);
      if (!prod) throw missing(`${pp}[product_data]`);
      const pdp = `${pp}[product_data]`;
      checkKnown(prod, PRODUCT_DATA_PARAMS, pdp);
      const name = reqString(prod, 'name', pdp, 250);
      const description = optString(prod, 'description', pdp, 40000) ?? null;
      const images = (optArray(prod, 'images', pdp) ?? []).map((v, j) => {
        if (typeof v !== 'string' || !isHttpUrl(v))
          throw invalid('Not a valid URL', `${pdp}[images][${j}]`, 'url_invalid');
        return v;
      });
      if (images.length > 8) throw invalid('You can only pass up to 8 images.', `${pdp}[images]`);
      optMetadata(prod, 'metadata', pdp); // validated; products are not stored
      const taxBehavior =
        optEnum(pd, 'tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const, pp) ?? 'unspecified';

      const unitAmount = optInt(pd, 'unit_amount', pp, { min: 0, max: MAX_AMOUNT });
      const unitDecimalRaw = optString(pd, 'unit_amount_decimal', pp);
      if (unitAmount !== undefined && unitDecimalRaw !== undefined) {
        throw invalid(
          'You may only specify one of these parameters: unit_amount, unit_amount_decimal.',
          `${pp}[unit_amount]`,
        );
      }
      let unitDecimal: number;
      if (unitAmount !== undefined) {
        unitDecimal = unitAmount;
      } else if (unitDecimalRaw !== undefined) {
        if (!/^\d+(\.\d{1,12})?$/.test(unitDecimalRaw))
          throw invalid(`Invalid decimal: ${unitDecimalRaw}`, `${pp}[unit_amount_decimal]`);
        unitDecimal = Number(unitDecimalRaw);
      } else {
        throw invalid(
          `You must specify either \`unit_amount\` or \`unit_amount_decimal\` in \`${pp}\`.`,
          `${pp}[unit_amount]`,
          'parameter_missing',
        );
      }
      const quantityRaw = optInt(item, 'quantity', p, { min: 1, max: 999_999 });
      if (quantityRaw === undefined)
        throw invalid(`Quantity is required. Add \`quantity\` to \`${p}\``, `${p}[quantity]`, 'parameter_missing');
      const quantity = quantityRaw;
      const lineAmount = Math.round(unitDecimal * quantity);

      const productInfo: ProductInfo = { id: randomId('prod_', 14), name, description, images };
      products.push(productInfo);
      lineItems.push({
        id: randomId('li_', 24),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: lineAmount,
        amount_tax: 0,
        amount_total: lineAmount,
        currency: cur,
        description: name,
        price: {
          id: randomId('price_', 24),
          object: 'price',
          active: false,
          billing_scheme: 'per_unit',
          created: now,
          currency: cur,
          custom_unit_amount: null,
          livemode: false,
          lookup_key: null,
          metadata: {},
          nickname: null,
          product: productInfo.id,
          recurring: null,
          tax_behavior: taxBehavior,
          tiers_mode: null,
          transform_quantity: null,
          type: 'one_time',
          unit_amount: Number.isInteger(unitDecimal) ? unitDecimal : null,
          unit_amount_decimal: unitDecimalRaw ?? String(unitDecimal),
        },
        quantity,
      });
    });
    return { lineItems, products, currency: currency as string };
  }

  private parsePaymentIntentData(params: FormObject): PaymentIntentData {
    const pid = optObject(params, 'payment_intent_data');
    const result: PaymentIntentData = {
      metadata: {},
      description: null,
      receipt_email: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
    };
    if (!pid) return result;
    const p = 'payment_intent_data';
    checkKnown(pid, PAYMENT_INTENT_DATA_PARAMS, p);
    for (const connect of ['application_fee_amount', 'on_behalf_of', 'transfer_data']) {
      if (pid[connect] !== undefined && pid[connect] !== '')
        throw unsupported(`${p}[${connect}]`, 'Connect parameters');
    }
    const capture = optEnum(pid, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const, p);
    if (capture === 'manual') throw unsupported(`${p}[capture_method]`, 'manual capture');
    const receiptEmail = optString(pid, 'receipt_email', p, 512);
    if (receiptEmail !== undefined && !isEmail(receiptEmail)) {
      throw invalid(`Invalid email address: ${receiptEmail}`, `${p}[receipt_email]`, 'email_invalid');
    }
    result.metadata = optMetadata(pid, 'metadata', p) ?? {};
    result.description = optString(pid, 'description', p, 1000) ?? null;
    result.receipt_email = receiptEmail ?? null;
    result.statement_descriptor = optString(pid, 'statement_descriptor', p, 22) ?? null;
    result.statement_descriptor_suffix = optString(pid, 'statement_descriptor_suffix', p, 22) ?? null;
    return result;
  }

  /** The record, after applying expiry if its time has come. */
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
    const now = this.nowSec();
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

    const refund: Refund = {
      id: randomId('re_', 24),
      object: 'refund',
      amount,
      balance_transaction: randomId('txn_', 24),
      charge: charge.id,
      created: this.nowSec(),
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

  retrieveRefund(id: string, params: FormObject): Json {
    checkKnown(params, ['expand']);
    const r = Object.hasOwn(this.state.refunds, id) ? this.state.refunds[id] : undefined;
    if (!r) throw noSuch('refund', id, 'refund', 404);
    return this.expand(clone(r) as unknown as Json, expandList(params));
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

  listEvents(params: FormObject): Json {
    checkKnown(params, [...LIST_PARAMS, 'type', 'types', 'created', 'delivery_success']);
    const type = optString(params, 'type');
    const types = optArray(params, 'types')?.map(String);
    const created = optCreatedFilter(params);
    const events = this.state.events
      .map((e) => e.event)
      .filter(
        (e) =>
          (type === undefined || matchesType(e.type, type)) &&
          (types === undefined || types.some((t) => matchesType(e.type, t))) &&
          created(e.created),
      )
      .reverse();
    return this.list(events, params, '/v1/events');
  }

  /** For the test hook: every recorded event with its delivery log, oldest first. */
  eventLog(type?: string): EventRecord[] {
    return clone(this.state.events.filter((e) => type === undefined || matchesType(e.event.type, type)));
  }

  // ---------------------------------------------------------------- internals

  private emit(
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
  private deliver(record: EventRecord): Promise<Delivery> {
    if (!this.o.dispatcher || record.delivery.status !== 'pending') return Promise.resolve(record.delivery);
    return this.o.dispatcher.dispatch(record);
  }

  private list<T extends { id: string }>(items: T[], params: FormObject, url: string): Json {
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

  private expand(obj: Json, paths: string[]): Json {
    for (const path of paths) {
      const segs = path.split('.');
      if (segs.length > 4) throw invalid(`You cannot expand more than 4 levels of a property (${path}).`, 'expand');
      this.expandPath(obj, segs, path);
    }
    return obj;
  }

  private expandPath(target: Json, segs: string[], path: string): void {
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

  private lookup(id: string): Json | undefined {
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

function matchesType(type: string, pattern: string): boolean {
  return pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65)/.test(digits)) return 'discover';
  return 'unknown';
}

function luhnOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Stripe's well-known test cards that fail; any other valid number succeeds. */
const DECLINING_TEST_CARDS: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': 'Your card was declined.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

/** Why a (simulated) card payment fails, or null when it goes through. */
export function cardProblem(cardNumber: string): { field: 'card_number'; message: string } | null {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnOk(digits))
    return { field: 'card_number', message: 'Your card number is invalid.' };
  const declined = DECLINING_TEST_CARDS[digits];
  return declined ? { field: 'card_number', message: declined } : null;
}
