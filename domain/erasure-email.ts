/** The e-mail that confirms erasing everything tied to an address (POST /api/erasure-request). */
import { type EmailTemplate, link, mailto, type RenderedEmail, renderEmail } from './email-template';

export interface ErasureEmailInput {
  brand: string;
  siteUrl: string;
  supportEmail: string;
  /** The one-time token of the confirmation link. */
  token: string;
  /** Hours the link works. */
  validHours: number;
}

/** The confirmation page: `/forget/{token}` (domain/site-routes.ts). */
export const erasureLink = (siteUrl: string, token: string) =>
  `${siteUrl.replace(/\/+$/, '')}/forget/${encodeURIComponent(token)}`;

export function erasureEmail(input: ErasureEmailInput): EmailTemplate {
  const url = erasureLink(input.siteUrl, input.token);
  return {
    subject: `${input.brand}: confirm deleting your data`,
    heading: input.brand,
    blocks: [
      { kind: 'paragraph', parts: ['Hello,'] },
      {
        kind: 'paragraph',
        parts: [
          `Someone, hopefully you, asked to delete everything ${input.brand} keeps about this e-mail address: every order's photos, images and share links, and launch sign-ups. Amounts and dates of paid orders stay, as the law requires.`,
        ],
      },
      { kind: 'button', text: 'Delete my data', href: url },
      {
        kind: 'paragraph',
        parts: [
          `The link works for ${input.validHours} hours and only once. If you did not ask for this, ignore this e-mail: nothing is deleted. `,
          link('Privacy policy', `${input.siteUrl.replace(/\/+$/, '')}/privacy`),
          ' · Questions: ',
          mailto(input.supportEmail),
        ],
      },
      { kind: 'paragraph', parts: [`— ${input.brand}`] },
    ],
  };
}

export function renderErasureEmail(input: ErasureEmailInput): RenderedEmail {
  return renderEmail(erasureEmail(input));
}
