/**
 * The hosted checkout page a customer is sent to: GET /pay/:id (the form, or why it cannot be paid), POST /pay/:id
 * (pay with a test card: the form's checks, then the payment and its webhook), POST /pay/:id/cancel.
 */
import { randomBytes } from 'node:crypto';
import type * as http from 'node:http';
import type { LocalStripeApi } from './api';
import { cardProblem } from './cards';
import { decodeSegment, readText, redirect, sendHtml } from './http-io';
import { type CheckoutPageInput, type PageOptions, renderCheckoutPage, renderMessagePage } from './page';
import { parseForm } from './params';

type FormErrors = NonNullable<CheckoutPageInput['errors']>;

/** The card form's values checked as Stripe's page does; the test card's defaults fill what is left empty. */
function checkForm(body: string, presetEmail: string | null | undefined, nowMs: number) {
  const form = parseForm(body);
  const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).trim() : undefined);
  const values = {
    email: field('email'),
    name: field('name'),
    card_number: field('card_number'),
    card_expiry: field('card_expiry'),
    card_cvc: field('card_cvc'),
  };
  const errors: FormErrors = {};
  const email = presetEmail ?? values.email ?? '';
  if (!email) errors.email = 'Enter your email address.';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'Your email address is invalid.';
  const cardNumber = values.card_number ?? '4242424242424242';
  const problem = cardProblem(cardNumber);
  if (problem) errors.card_number = problem.message;
  const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.card_expiry ?? '12/34');
  let expMonth = 12;
  let expYear = 2034;
  if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) {
    errors.card_expiry = "Your card's expiration date is incomplete.";
  } else {
    expMonth = Number(expiry[1]);
    expYear = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const d = new Date(nowMs);
    if (expYear < d.getUTCFullYear() || (expYear === d.getUTCFullYear() && expMonth < d.getUTCMonth() + 1)) {
      errors.card_expiry = "Your card's expiration date is in the past.";
    }
  }
  if (!/^\d{3,4}$/.test(values.card_cvc ?? '123')) errors.card_cvc = "Your card's security code is incomplete.";
  return { values, errors, email, cardNumber, expMonth, expYear };
}

/** The handler of /pay/… paths; false when the path is not one of them. */
export function checkoutPages(api: LocalStripeApi, accountName: string, now: () => number) {
  const pageOptions = (): PageOptions => ({ accountName, nonce: randomBytes(16).toString('base64') });

  function pageNotFound(res: http.ServerResponse): void {
    const o = pageOptions();
    const message = 'This checkout link is not valid. Start the purchase again from the app.';
    sendHtml(res, 404, renderMessagePage({ title: 'Checkout not found', tone: 'warning', message }, o), o.nonce);
  }

  /** The page shown instead of the form when the session cannot be paid any more. */
  function statusPage(res: http.ServerResponse, id: string, httpStatus: number): boolean {
    const rec = api.getSession(id);
    if (!rec) {
      pageNotFound(res);
      return true;
    }
    const s = rec.session;
    if (s.status === 'open') return false;
    const o = pageOptions();
    const sessionView = { session: s, lineItems: rec.line_items, products: rec.products };
    if (s.status === 'complete') {
      const next = api.successRedirect(s);
      const by = s.customer_details?.email ? ` by ${s.customer_details.email}` : '';
      const page = renderMessagePage(
        {
          title: 'Payment complete',
          tone: 'success',
          message: `This checkout has already been paid${by}. No further payment is needed.`,
          link: next ? { href: next, label: 'Continue' } : undefined,
          session: sessionView,
        },
        o,
      );
      sendHtml(res, httpStatus, page, o.nonce);
    } else {
      const back = api.cancelRedirect(s);
      const page = renderMessagePage(
        {
          title: 'Checkout expired',
          tone: 'warning',
          message:
            'This checkout link has expired and can no longer be paid. Nothing was charged. Start the purchase again from the app.',
          link: back ? { href: back, label: 'Return to the app' } : undefined,
          session: sessionView,
        },
        o,
      );
      sendHtml(res, httpStatus, page, o.nonce);
    }
    return true;
  }

  function showForm(
    res: http.ServerResponse,
    id: string,
    status: number,
    extra: Pick<CheckoutPageInput, 'values' | 'errors'> = {},
  ): void {
    const rec = api.getSession(id);
    if (!rec) {
      pageNotFound(res);
      return;
    }
    const o = pageOptions();
    const input = { session: rec.session, lineItems: rec.line_items, products: rec.products, nowSec: api.nowSec() };
    sendHtml(res, status, renderCheckoutPage({ ...input, ...extra }, o), o.nonce);
  }

  async function handlePay(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
    const body = await readText(req);
    const rec = api.getSession(id);
    if (!rec) return pageNotFound(res);
    if (rec.session.status === 'complete') {
      // A repeated submit (double click, back + resubmit): behave like the first one did.
      const next = api.successRedirect(rec.session);
      if (next) return redirect(res, next);
    }
    if (statusPage(res, id, 409)) return;
    const { values, errors, email, cardNumber, expMonth, expYear } = checkForm(body, rec.session.customer_email, now());
    if (Object.keys(errors).length > 0) return showForm(res, id, 422, { values, errors });

    const result = api.pay(id, { email, name: values.name || null, cardNumber, expMonth, expYear, postalCode: null });
    // Like Stripe, the redirect does not depend on the webhook outcome; waiting for the first attempt just
    // makes it likely the app has processed the payment when the customer lands on the success page.
    await result.delivery;
    const next = api.successRedirect(result.session);
    if (next) return redirect(res, next);
    const o = pageOptions();
    const page = renderMessagePage(
      {
        title: 'Payment complete',
        tone: 'success',
        message: 'Thanks! Your (simulated) payment went through. You can close this page.',
        session: { session: result.session, lineItems: rec.line_items, products: rec.products },
      },
      o,
    );
    sendHtml(res, 200, page, o.nonce);
  }

  return async function handlePage(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    url: URL,
  ): Promise<boolean> {
    const page = /^\/pay\/([^/]+)(\/cancel)?\/?$/.exec(url.pathname);
    if (!page) return false;
    const id = decodeSegment(page[1]);
    if (page[2]) {
      req.resume();
      const rec = api.getSession(id);
      if (!rec) pageNotFound(res);
      else redirect(res, api.cancelRedirect(rec.session) ?? `/pay/${encodeURIComponent(id)}`);
      return true;
    }
    if (method === 'GET' || method === 'HEAD') {
      req.resume();
      if (!statusPage(res, id, 200)) showForm(res, id, 200);
      return true;
    }
    if (method === 'POST') {
      await handlePay(req, res, id);
      return true;
    }
    return false;
  };
}
