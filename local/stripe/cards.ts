/** Stripe's test cards as the checkout page and a payment see them: brand, number check, the ones that fail. */

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
