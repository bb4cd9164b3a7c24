import { ROUTES } from '../../domain/api-routes';
import { contract } from '../../domain/contract';
import { EMAIL_MESSAGES } from '../../domain/email';

const hash = 'a'.repeat(64);
const firstMessage = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0].message;

describe('the API contract', () => {
  it('names exactly the routes of the route table', () => {
    expect(Object.keys(contract).sort()).toEqual(ROUTES.map((r) => r.handler).sort());
  });

  it('every route with a body-less method has no request schema, every POST but the webhook has one', () => {
    for (const r of ROUTES) {
      const entry = contract[r.handler as keyof typeof contract];
      expect([r.handler, 'request' in entry]).toEqual([
        r.handler,
        r.method === 'POST' && r.handler !== 'stripe-webhook',
      ]);
    }
  });

  it('checkout: trims the e-mail, removes duplicate photos and styles, and says what is wrong in the spec words', () => {
    const parsed = contract.checkout.request.parse({
      email: ' a@b.co ',
      hashes: [hash, hash],
      styles: ['3d', '3d', 'anime'],
    });
    expect(parsed).toEqual({ email: 'a@b.co', hashes: [hash], styles: ['3d', 'anime'] });
    expect(firstMessage(contract.checkout.request, { email: '', hashes: [hash], styles: ['3d'] })).toBe(
      EMAIL_MESSAGES.required,
    );
    expect(firstMessage(contract.checkout.request, { hashes: [hash], styles: ['3d'] })).toBe(EMAIL_MESSAGES.required);
    expect(firstMessage(contract.checkout.request, { email: 'nope', hashes: [hash], styles: ['3d'] })).toBe(
      EMAIL_MESSAGES.invalid,
    );
    expect(firstMessage(contract.checkout.request, { email: 'a@b.co', hashes: [], styles: ['3d'] })).toBe(
      'hashes must be a non-empty list of image hashes.',
    );
    expect(
      firstMessage(contract.checkout.request, { email: 'a@b.co', hashes: Array(51).fill(hash), styles: ['3d'] }),
    ).toBe('At most 50 images per request.');
    expect(firstMessage(contract.checkout.request, { email: 'a@b.co', hashes: [hash], styles: ['claymation'] })).toBe(
      'Unknown style: "claymation".',
    );
  });

  it('upload-image: the spec text for a wrong type, a clear one for a bad hash', () => {
    expect(firstMessage(contract['upload-image'].request, { image_hash: hash, file_type: 'image/gif' })).toBe(
      'Only JPG/PNG files are allowed',
    );
    expect(firstMessage(contract['upload-image'].request, { image_hash: 'x', file_type: 'image/png' })).toBe(
      'image_hash must be a SHA-256 hash (64 lowercase hex characters).',
    );
  });
});

describe('parseWith', () => {
  const { parseWith } = jest.requireActual('../../lambdas/lib/http') as typeof import('../../lambdas/lib/http');
  const detailOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('expected a 400');
  };

  it('shows our messages as they are, even deep in a list, and names the field on zod generic ones', () => {
    expect(
      detailOf(() =>
        parseWith(contract.checkout.request, { email: 'a@b.co', hashes: [hash], styles: ['3d', 'claymation'] }),
      ),
    ).toBe('Unknown style: "claymation".');
    expect(detailOf(() => parseWith(contract['get-job'].params, { job_id: 5 }))).toMatch(/^job_id: Invalid input/);
  });
});
