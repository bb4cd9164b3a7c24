import { EMAIL_MESSAGES, isValidEmail, validateEmail } from '../../domain/email';

describe('validateEmail', () => {
  it('requires a value', () => {
    expect(validateEmail('')).toBe('Email is required.');
    expect(validateEmail('   ')).toBe(EMAIL_MESSAGES.required);
  });

  it.each(['plain', 'a@b', '@example.com', 'a b@example.com', 'ada@exa mple.com', 'ada@@example.com'])('rejects %s', (v) => {
    expect(validateEmail(v)).toBe('Please enter a valid email address.');
  });

  it.each(['ada@example.com', 'first.last+tag@sub.example.co.uk', ' ada@example.com '])('accepts %s', (v) => {
    expect(validateEmail(v)).toBeNull();
    expect(isValidEmail(v)).toBe(true);
  });
});
