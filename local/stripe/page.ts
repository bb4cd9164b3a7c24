/**
 * The hosted checkout page of the local Stripe stand-in: plain server-rendered HTML that works
 * without JavaScript, clearly marked as a simulated test payment.
 */
import { formatAmount } from './money';
import type { CheckoutSession, LineItem, ProductInfo } from './store';

export const TEST_CARD = '4242 4242 4242 4242';
export const TEST_EXPIRY = '12 / 34';
export const TEST_CVC = '123';

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export interface PageOptions {
  accountName: string;
  nonce: string;
}

export interface CheckoutPageInput {
  session: CheckoutSession;
  lineItems: LineItem[];
  products: ProductInfo[];
  /** Values to refill after a failed submit. */
  values?: Partial<Record<'email' | 'name' | 'card_number' | 'card_expiry' | 'card_cvc', string>>;
  /** Per-field problems after a failed submit. */
  errors?: Partial<Record<'email' | 'name' | 'card_number' | 'card_expiry' | 'card_cvc', string>>;
  nowSec: number;
}

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1a1f36;background:#f6f8fa;line-height:1.5}
body{margin:0}
.test-banner{background:#fff3c4;color:#4d3800;border-bottom:2px solid #d4a200;padding:.6rem 1rem;text-align:center;font-size:.95rem}
.test-banner p{margin:0}
.test-banner strong{text-transform:uppercase;letter-spacing:.04em}
.wrap{max-width:960px;margin:0 auto;padding:1.5rem 1rem 3rem;display:grid;gap:2rem}
@media (min-width:800px){.wrap{grid-template-columns:1fr 1fr;padding-top:3rem}}
.merchant{display:flex;align-items:center;gap:.5rem;font-weight:600;margin:0 0 1rem}
.badge{font-size:.7rem;font-weight:700;background:#d4a200;color:#1a1300;border-radius:4px;padding:.1rem .4rem;letter-spacing:.05em}
h1{font-size:1rem;font-weight:500;color:#4f566b;margin:0}
.total{font-size:2.25rem;font-weight:700;margin:.25rem 0 1.5rem}
ul.items{list-style:none;margin:0;padding:0;border-top:1px solid #e3e8ee}
ul.items li{display:flex;justify-content:space-between;gap:1rem;padding:.85rem 0;border-bottom:1px solid #e3e8ee}
.item-name{font-weight:600}
.item-desc,.item-qty,.muted{color:#4f566b;font-size:.9rem}
.item-amount{font-weight:600;white-space:nowrap}
.sum{display:flex;justify-content:space-between;font-weight:700;padding:.85rem 0}
.panel{background:#fff;border:1px solid #e3e8ee;border-radius:12px;padding:1.5rem;box-shadow:0 2px 6px rgba(26,31,54,.06)}
h2{font-size:1.15rem;margin:0 0 1rem}
label,legend{display:block;font-weight:600;font-size:.9rem;margin:0 0 .3rem}
fieldset{border:0;margin:0 0 1rem;padding:0}
.field{margin:0 0 1rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #8792a2;border-radius:6px;background:#fff;color:#1a1f36}
input[readonly]{background:#f6f8fa}
input[aria-invalid="true"]{border-color:#b3093c;border-width:2px}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.hint{font-size:.85rem;color:#4f566b;margin:.3rem 0 0}
.field-error{font-size:.85rem;color:#b3093c;margin:.3rem 0 0;font-weight:600}
.alert{border:2px solid #b3093c;background:#fff0f3;color:#7a0626;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.notice{border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.notice.success{background:#e9f8ef;border:2px solid #1a7f46;color:#0d4d29}
.notice.warning{background:#fff3c4;border:2px solid #d4a200;color:#4d3800}
.notice.info{background:#eef2ff;border:2px solid #4f46e5;color:#1e1b6b}
button,.button{display:inline-block;width:100%;font:inherit;font-weight:600;font-size:1.05rem;padding:.8rem 1rem;border-radius:8px;border:2px solid transparent;cursor:pointer;text-align:center;text-decoration:none}
.primary{background:#4f46e5;color:#fff}
.primary:hover{background:#4338ca}
.primary[disabled]{background:#6b66c9;cursor:progress}
.secondary{background:#fff;color:#1a1f36;border-color:#8792a2;margin-top:.75rem}
.secondary:hover{background:#f6f8fa}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
footer{grid-column:1/-1;text-align:center;color:#4f566b;font-size:.85rem}
`;

function layout(title: string, body: string, o: PageOptions, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · TEST MODE</title>
<style nonce="${o.nonce}">${CSS}</style>
</head>
<body>
<header class="test-banner"><p><strong>Test mode</strong> — simulated payment, no card is charged.</p></header>
${body}
${script ? `<script nonce="${o.nonce}">${script}</script>` : ''}
</body>
</html>
`;
}

function merchant(o: PageOptions): string {
  return `<p class="merchant">${escapeHtml(o.accountName)} <span class="badge">TEST MODE</span></p>`;
}

function summary(s: CheckoutSession, lineItems: LineItem[], products: ProductInfo[], o: PageOptions): string {
  const items = lineItems
    .map((li, i) => {
      const desc = products[i]?.description;
      const qty =
        li.quantity > 1
          ? `<div class="item-qty">Qty ${li.quantity} × ${escapeHtml(formatAmount(li.price.unit_amount ?? Number(li.price.unit_amount_decimal), li.currency))}</div>`
          : '';
      return `<li><div><div class="item-name">${escapeHtml(li.description)}</div>${desc ? `<div class="item-desc">${escapeHtml(desc)}</div>` : ''}${qty}</div><div class="item-amount">${escapeHtml(formatAmount(li.amount_total, li.currency))}</div></li>`;
    })
    .join('\n');
  return `<section aria-labelledby="summary-heading">
${merchant(o)}
<h1 id="summary-heading">Pay ${escapeHtml(o.accountName)}</h1>
<p class="total">${escapeHtml(formatAmount(s.amount_total, s.currency))}</p>
<h2 class="sr-only">Order summary</h2>
<ul class="items">
${items}
</ul>
<div class="sum"><span>Total due</span><span>${escapeHtml(formatAmount(s.amount_total, s.currency))}</span></div>
</section>`;
}

function verb(submitType: string | null): string {
  if (submitType === 'book') return 'Book';
  if (submitType === 'donate') return 'Donate';
  return 'Pay';
}

function expiresIn(expiresAt: number, nowSec: number): string {
  const mins = Math.max(0, Math.round((expiresAt - nowSec) / 60));
  if (mins < 90) return `${mins} minute${mins === 1 ? '' : 's'}`;
  const hours = Math.round(mins / 60);
  return `${hours} hours`;
}

export function payButtonLabel(s: CheckoutSession): string {
  return `${verb(s.submit_type)} ${formatAmount(s.amount_total, s.currency)}`;
}

export function renderCheckoutPage(input: CheckoutPageInput, o: PageOptions): string {
  const { session: s, values = {}, errors = {} } = input;
  const id = encodeURIComponent(s.id);
  const fieldErrors = Object.entries(errors).filter(([, m]) => m);
  const val = (k: keyof NonNullable<CheckoutPageInput['values']>, dflt: string) => escapeHtml(values[k] ?? dflt);
  const invalidAttr = (k: keyof NonNullable<CheckoutPageInput['errors']>, hint?: string) => {
    const described = [hint, errors[k] ? `${k}-error` : ''].filter(Boolean).join(' ');
    return `${errors[k] ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`;
  };
  const errorText = (k: keyof NonNullable<CheckoutPageInput['errors']>) =>
    errors[k] ? `<p class="field-error" id="${k}-error">${escapeHtml(errors[k] as string)}</p>` : '';
  const alert = fieldErrors.length
    ? `<div class="alert" role="alert" id="form-error"><strong>Payment not completed.</strong> ${escapeHtml(fieldErrors.map(([, m]) => m).join(' '))}</div>`
    : '';
  const email = s.customer_email;
  const label = payButtonLabel(s);
  const body = `<main class="wrap">
${summary(s, input.lineItems, input.products, o)}
<section class="panel" aria-labelledby="pay-heading">
<h2 id="pay-heading">Payment details</h2>
${alert}
<form method="post" action="/pay/${id}" id="pay-form" novalidate>
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email ? escapeHtml(email) : val('email', '')}"${email ? ' readonly' : ''}${invalidAttr('email')}>
${errorText('email')}
</div>
<fieldset>
<legend>Card information</legend>
<div class="field">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required value="${val('card_number', TEST_CARD)}"${invalidAttr('card_number', 'card-hint')}>
<p class="hint" id="card-hint">Test card ${TEST_CARD} is filled in and always succeeds. 4000 0000 0000 0002 simulates a decline.</p>
${errorText('card_number')}
</div>
<div class="row">
<div class="field">
<label for="card_expiry">Expiry (MM / YY)</label>
<input id="card_expiry" name="card_expiry" inputmode="numeric" autocomplete="cc-exp" required value="${val('card_expiry', TEST_EXPIRY)}"${invalidAttr('card_expiry')}>
${errorText('card_expiry')}
</div>
<div class="field">
<label for="card_cvc">Security code (CVC)</label>
<input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" required value="${val('card_cvc', TEST_CVC)}"${invalidAttr('card_cvc')}>
${errorText('card_cvc')}
</div>
</div>
</fieldset>
<div class="field">
<label for="name">Name on card <span class="muted">(optional)</span></label>
<input id="name" name="name" autocomplete="cc-name" value="${val('name', '')}"${invalidAttr('name')}>
${errorText('name')}
</div>
<button type="submit" class="primary" id="pay-button">${escapeHtml(label)}</button>
</form>
${s.cancel_url ? `<form method="post" action="/pay/${id}/cancel"><button type="submit" class="secondary">Cancel</button></form>` : ''}
<p class="hint">This checkout link expires in ${expiresIn(s.expires_at, input.nowSec)}.</p>
</section>
<footer>Simulated by the ToonZap local Stripe stand-in. Nothing is sent to Stripe and no money moves.</footer>
</main>`;
  const script = `document.getElementById('pay-form').addEventListener('submit',function(){var b=document.getElementById('pay-button');b.disabled=true;b.textContent='Processing…';this.setAttribute('aria-busy','true');});${fieldErrors.length ? `document.getElementById('${fieldErrors[0][0]}').focus();` : ''}`;
  return layout(`${label} — ${o.accountName}`, body, o, script);
}

export interface MessagePageInput {
  title: string;
  tone: 'success' | 'warning' | 'info';
  message: string;
  link?: { href: string; label: string };
  session?: { session: CheckoutSession; lineItems: LineItem[]; products: ProductInfo[] };
}

export function renderMessagePage(input: MessagePageInput, o: PageOptions): string {
  const side = input.session
    ? summary(input.session.session, input.session.lineItems, input.session.products, o)
    : `<section>${merchant(o)}</section>`;
  const link = input.link
    ? `<a class="button primary" href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.label)}</a>`
    : '';
  const body = `<main class="wrap">
${side}
<section class="panel" aria-labelledby="status-heading">
<div class="notice ${input.tone}" role="status">
<${input.session ? 'h2' : 'h1'} id="status-heading">${escapeHtml(input.title)}</${input.session ? 'h2' : 'h1'}>
<p>${escapeHtml(input.message)}</p>
</div>
${link}
</section>
</main>`;
  return layout(input.title, body, o);
}
