/** E-mail validation for the preview sign-up and checkout forms (spec section 5). */

/** Something@something.something, with no whitespace anywhere. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const EMAIL_MESSAGES = {
  required: 'Email is required.',
  invalid: 'Please enter a valid email address.',
} as const;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** The message to show for the value, or null when it is acceptable. */
export function validateEmail(value: string): string | null {
  if (!value.trim()) return EMAIL_MESSAGES.required;
  if (!isValidEmail(value)) return EMAIL_MESSAGES.invalid;
  return null;
}
