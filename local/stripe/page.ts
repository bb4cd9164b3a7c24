/**
 * The hosted checkout page the app sends a customer to, clearly marked as a test: GET /pay/:id shows the order and a
 * card form (or why it cannot be paid), POST /pay/:id pays with the card entered, POST /pay/:id/cancel goes back.
 * Plain server-rendered HTML that works without JavaScript.
 */
import type * as http from 'node:http';
import { escapeHtml } from '../../domain/html';
import type { LocalStripeApi } from './api';
import { parseForm, readText, redirect, sendHtml } from './http-io';
import { formatAmount, type SessionRecord } from './store';

const TEST_CARD = '4242 4242 4242 4242';
/** Stripe's test card that is declined; any other well-formed number is paid. */
const DECLINED_CARD = '4000000000000002';

const CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1f36;background:#f6f8fa}
.test{background:#fff3c4;border-bottom:2px solid #d4a200;padding:.6rem 1rem;text-align:center;margin:0}
main{max-width:960px;margin:0 auto;padding:1.5rem 1rem;display:grid;gap:2rem}@media(min-width:800px){main{grid-template-columns:1fr 1fr}}
.total{font-size:2rem;font-weight:700;margin:0 0 1rem}ul{list-style:none;padding:0}li{display:flex;justify-content:space-between;gap:1rem;border-top:1px solid #e3e8ee;padding:.75rem 0}
.muted{color:#4f566b;font-size:.9rem}.panel{background:#fff;border:1px solid #e3e8ee;border-radius:12px;padding:1.5rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #8792a2;border-radius:6px}input[aria-invalid=true]{border:2px solid #b3093c}
.alert{border:2px solid #b3093c;background:#fff0f3;color:#7a0626;border-radius:8px;padding:.75rem}
button,a.button{display:block;box-sizing:border-box;width:100%;margin-top:1rem;font:inherit;font-weight:600;padding:.75rem;border-radius:8px;border:2px solid #4f46e5;background:#4f46e5;color:#fff;text-align:center;text-decoration:none;cursor:pointer}
button.secondary{background:#fff;color:#1a1f36;border-color:#8792a2}:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}`;

function layout(title: string, rec: SessionRecord, panel: string): string {
  const s = rec.session;
  const items = rec.line_items
    .map(
      (li) =>
        `<li><div><strong>${escapeHtml(li.name)}</strong>${li.description ? `<div class="muted">${escapeHtml(li.description)}</div>` : ''}${li.quantity > 1 ? `<div class="muted">Qty ${li.quantity}</div>` : ''}</div><div>${formatAmount(li.unit_amount * li.quantity, s.currency)}</div></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} · TEST MODE</title><style>${CSS}</style></head>
<body>
<p class="test"><strong>Test mode</strong> — simulated payment, no card is charged.</p>
<main>
<section aria-labelledby="summary"><h1 id="summary" class="muted">Pay ToonZap (test mode)</h1>
<p class="total">${formatAmount(s.amount_total, s.currency)}</p><ul>${items}</ul></section>
<section class="panel">${panel}</section>
</main>
</body>
</html>
`;
}

function formPage(rec: SessionRecord, card = TEST_CARD, error?: string): string {
  const s = rec.session;
  const id = encodeURIComponent(s.id);
  const pay = `Pay ${formatAmount(s.amount_total, s.currency)}`;
  return layout(
    pay,
    rec,
    `<h2>Payment details</h2>
${error ? `<div class="alert" role="alert"><strong>Payment not completed.</strong> ${escapeHtml(error)}</div>` : ''}
<p>Email: ${escapeHtml(s.customer_email ?? 'test@example.com')}</p>
<form method="post" action="/pay/${id}" id="pay-form">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required value="${escapeHtml(card)}" aria-describedby="card-hint"${error ? ' aria-invalid="true"' : ''}>
<p class="muted" id="card-hint">${TEST_CARD} pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 0259 pays and is then disputed.</p>
<button type="submit">${pay}</button>
</form>
${s.cancel_url ? `<form method="post" action="/pay/${id}/cancel"><button type="submit" class="secondary">Cancel</button></form>` : ''}`,
  );
}

/** Instead of the form once the session cannot be paid any more. */
function endedPage(rec: SessionRecord): string {
  const s = rec.session;
  const [title, text, link] =
    s.status === 'complete'
      ? ['Payment complete', 'This checkout has already been paid. No further payment is needed.', s.success_url]
      : ['Checkout expired', 'This checkout link has expired and cannot be paid. Nothing was charged.', s.cancel_url];
  const next = link?.replaceAll('{CHECKOUT_SESSION_ID}', s.id);
  const button = next ? `<a class="button" href="${escapeHtml(next)}">Continue</a>` : '';
  return layout(title, rec, `<h2 role="status">${title}</h2><p>${text}</p>${button}`);
}

/** Why the card is refused: not a card number, or Stripe's declining test card; any other number pays. */
function cardError(digits: string): string | undefined {
  if (!/^\d{13,19}$/.test(digits)) return 'Your card number is invalid.';
  if (digits === DECLINED_CARD) return 'Your card was declined.';
}

/** The handler of /pay/… paths; false when the path is not one of them. */
export function checkoutPages(api: LocalStripeApi) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string) => {
    const match = /^\/pay\/([^/]+)(\/cancel)?\/?$/.exec(path);
    if (!match) return false;
    if (method !== 'POST') req.resume();
    const body = method === 'POST' ? await readText(req) : '';
    const rec = api.getSession(decodeURIComponent(match[1]));
    const s = rec?.session;
    if (!rec || !s) {
      sendHtml(
        res,
        404,
        '<!doctype html><html lang="en"><title>Checkout not found</title><h1>Checkout not found</h1></html>',
      );
    } else if (match[2]) {
      redirect(res, s.cancel_url ?? `/pay/${encodeURIComponent(s.id)}`);
    } else if (method !== 'POST') {
      sendHtml(res, 200, s.status === 'open' ? formPage(rec) : endedPage(rec));
    } else if (s.status === 'complete' && s.success_url) {
      // A second submit (a double click, back and submit again) lands where the first did.
      redirect(res, s.success_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id));
    } else if (s.status !== 'open') {
      sendHtml(res, 409, endedPage(rec));
    } else {
      const entered = parseForm(body).card_number;
      const typed = typeof entered === 'string' ? entered.trim() : '';
      const card = typed.replace(/[\s-]/g, '');
      const error = cardError(card);
      if (error) {
        sendHtml(res, 422, formPage(rec, typed, error));
        return true;
      }
      const paid = api.pay(s.id, { email: s.customer_email ?? 'test@example.com', card });
      // As on Stripe the redirect does not wait for the app; waiting for the first attempt makes it likely that
      // the app has taken the payment when the customer lands on the status page.
      await paid.delivery;
      redirect(res, (s.success_url ?? `/pay/${s.id}`).replaceAll('{CHECKOUT_SESSION_ID}', s.id));
    }
    return true;
  };
}
