/**
 * E-mail validation for the preview sign-up and checkout forms (docs/product-spec.md §5), the same rules in the browser and
 * on the server. Strict on purpose: an address Stripe or SES would refuse, or one that could smuggle markup or
 * reordered text into an e-mail or a log, is refused at the form instead of failing later.
 */

export const EMAIL_MESSAGES = {
  required: 'Email is required.',
  invalid: 'Please enter a valid email address.',
} as const;

/** RFC 5321 limits: local part 64 octets, whole address 254 (a 256-octet path minus the angle brackets). */
export const MAX_LOCAL_PART = 64;
export const MAX_EMAIL_LENGTH = 254;

/**
 * Local part: RFC 5322 dot-atom (no quoted strings) of ASCII atext, minus the apostrophe: no `<>"'`, no spaces, no
 * control characters, no leading, trailing or doubled dots.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&*+/=?^_`{|}~-]+)*$/;
/** One DNS label: letters (IDN letters too), digits and inner hyphens, at most 63 characters. */
const LABEL = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u;
/** A top-level domain: letters only (2+), or an IDN's punycode form. */
const TLD = /^(\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;
/** Control, format (bidi overrides, zero-width), separator and private-use characters: never part of an address. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cs}]/u;

export function isValidEmail(value: string): boolean {
  const email = value.trim();
  if (email.length > MAX_EMAIL_LENGTH || INVISIBLE.test(email)) return false;
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > MAX_LOCAL_PART || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2) return false;
  return labels.every((l) => LABEL.test(l)) && TLD.test(labels[labels.length - 1]);
}

/** The message to show for the value, or null when it is acceptable. */
export function validateEmail(value: string): string | null {
  if (!value.trim()) return EMAIL_MESSAGES.required;
  if (!isValidEmail(value)) return EMAIL_MESSAGES.invalid;
  return null;
}

/**
 * The SES identities a sender such as `Brand <no-reply@example.com>` can be verified as: the address itself and its
 * domain (either one lets SES send from the address). Throws when the sender holds no address.
 */
export function senderIdentities(mailFrom: string): { address: string; domain: string } {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const domain = address.split('@')[1];
  if (!domain) throw new Error(`mailFrom "${mailFrom}" has no e-mail address`);
  return { address, domain };
}

/**
 * How an address is compared and indexed (sign-ups, orders, erasure requests): trimmed and lower-cased, so the
 * erasure an address confirms finds everything tied to it however it was typed.
 */
export const emailKey = (email: string) => email.trim().toLowerCase();
