/** Currency helpers: Stripe's minor units, minimum charge amounts, display formatting. */

const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** Stripe's minimum charge amounts (in minor units) for the common settlement currencies. */
const MINIMUM_AMOUNT: Record<string, number> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
};

/** Stripe's upper bound for a single amount (eight digits in minor units). */
export const MAX_AMOUNT = 99_999_999;

let supported: Set<string> | undefined;

export function isSupportedCurrency(code: string): boolean {
  supported ??= new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));
  return /^[a-z]{3}$/.test(code) && supported.has(code);
}

export function minorUnits(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  if (THREE_DECIMAL.has(currency)) return 3;
  return 2;
}

export function minimumAmount(currency: string): number | undefined {
  return MINIMUM_AMOUNT[currency];
}

/** `1234, 'usd'` → `$12.34`. */
export function formatAmount(amount: number, currency: string): string {
  const digits = minorUnits(currency);
  const value = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${currency.toUpperCase()}`;
  }
}
