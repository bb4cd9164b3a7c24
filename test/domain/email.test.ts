import { EMAIL_MESSAGES, isValidEmail, senderIdentities, validateEmail } from '../../domain/email';

describe('validateEmail', () => {
  it('requires a value', () => {
    expect(validateEmail('')).toBe('Email is required.');
    expect(validateEmail('   ')).toBe(EMAIL_MESSAGES.required);
  });

  it.each(['plain', 'a@b', '@example.com', 'a b@example.com', 'ada@exa mple.com', 'ada@@example.com'])(
    'rejects %s',
    (v) => {
      expect(validateEmail(v)).toBe('Please enter a valid email address.');
    },
  );

  // What Stripe and SES would refuse, or what could smuggle markup or reordered text (issue 10).
  it.each([
    ['markup in the local part', '<script>x</script>@evil.test'],
    ['a trailing NUL', 'ada@example.com\u0000'],
    ['a NUL inside', 'ad\u0000a@example.com'],
    ['a bidi override', 'ada\u202E@example.com'],
    ['a bidi isolate in the domain', 'ada@exa\u2066mple.com'],
    ['a zero-width space', 'ada\u200B@example.com'],
    ['quotes', '"a"b@c.co'],
    ['an apostrophe', "o'brien@example.com"],
    ['angle brackets', 'Ada <ada@example.com>'],
    ['a 65-character local part', `${'a'.repeat(65)}@example.com`],
    ['a 255-character address', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
    ['a 64-character label', `ada@${'b'.repeat(64)}.com`],
    ['a leading dot', '.ada@example.com'],
    ['a double dot', 'a..da@example.com'],
    ['a trailing dot in the domain', 'ada@example.com.'],
    ['a numeric TLD', 'ada@10.0.0.1'],
    ['a hyphen at a label edge', 'ada@-example.com'],
    ['an IP literal', 'ada@[127.0.0.1]'],
    ['a newline', 'ada@example.com\nBcc: x@y.co'],
  ])('rejects %s', (_why, v) => {
    expect(isValidEmail(v)).toBe(false);
    expect(validateEmail(v)).toBe(EMAIL_MESSAGES.invalid);
  });

  it.each([
    'ada@example.com',
    'first.last+tag@sub.example.co.uk',
    ' ada@example.com ',
    'a_b-c@x-y.io',
    'x!#$%&*+/=?^_`{|}~@example.com',
    `${'a'.repeat(64)}@example.com`,
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com` /* 254 */,
    'ada@bücher.de',
    'ada@xn--bcher-kva.de',
    'ada@example.xn--p1ai',
  ])('accepts %s', (v) => {
    expect(validateEmail(v)).toBeNull();
    expect(isValidEmail(v)).toBe(true);
  });
});

describe('senderIdentities', () => {
  it('reads the address and its domain from a sender with or without a display name', () => {
    expect(senderIdentities('ToonZap <no-reply@toonzap.example>')).toEqual({
      address: 'no-reply@toonzap.example',
      domain: 'toonzap.example',
    });
    expect(senderIdentities(' orders@toonzap.com ')).toEqual({ address: 'orders@toonzap.com', domain: 'toonzap.com' });
  });

  it('refuses a sender without an address', () => {
    expect(() => senderIdentities('ToonZap')).toThrow('has no e-mail address');
  });
});
