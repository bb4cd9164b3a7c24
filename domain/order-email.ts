/**
 * The order e-mail: sent once when a paid order is finished, with the receipt, a link to the status page and each
 * photo's gallery. Written once as blocks (domain/email-template.ts) that render both the text and the HTML body;
 * lambdas/lib/mail.ts sends it. Links point at the site (never at presigned URLs, which expire).
 */
import { type Block, type EmailTemplate, link, mailto, type RenderedEmail, renderEmail } from './email-template';
import type { ReceiptLine } from './order-receipt';

export type { RenderedEmail } from './email-template';

export interface OrderEmailInput {
  brand: string;
  siteUrl: string;
  /** Where to write with questions (also the e-mail's Reply-To). */
  supportEmail: string;
  generationId: string;
  status: 'completed' | 'failed';
  /** Photos with at least one delivered image, in order. */
  galleryShareIds: string[];
  delivered: number;
  /** Customer-facing note about failed items and the refund, if any. */
  notice: string | null;
  /** What was bought, paid and refunded (domain/order-receipt.ts); null when the order record is gone. */
  receipt: ReceiptLine[] | null;
}

export function orderEmail(input: OrderEmailInput): EmailTemplate {
  const site = input.siteUrl.replace(/\/+$/, '');
  const statusUrl = `${site}/status/${encodeURIComponent(input.generationId)}`;
  const { brand } = input;
  const receipt: Block[] = input.receipt ? [{ kind: 'table', title: 'Your receipt', rows: input.receipt }] : [];

  if (input.status === 'failed') {
    return {
      subject: `${brand}: we could not create your images`,
      heading: brand,
      blocks: [
        { kind: 'paragraph', parts: ['Hello,'] },
        { kind: 'paragraph', parts: [input.notice ?? 'We could not generate your images.'] },
        ...receipt,
        { kind: 'paragraph', parts: [link('View your order status', statusUrl)] },
        {
          kind: 'paragraph',
          parts: [
            'Sorry about that. Reply to this e-mail or write to ',
            mailto(input.supportEmail),
            ' if you need help.',
          ],
        },
        { kind: 'paragraph', parts: [`— ${brand}`] },
      ],
    };
  }

  const count = `${input.delivered} ${input.delivered === 1 ? 'image is' : 'images are'}`;
  const galleries: Block[] = input.galleryShareIds.length
    ? [
        {
          kind: 'list',
          title: 'Galleries by photo:',
          items: input.galleryShareIds.map((id, i) => [link(`Photo ${i + 1}`, `${site}/image/${id}`)]),
        },
      ]
    : [];
  return {
    subject: `${brand}: your cartoon images are ready`,
    heading: brand,
    blocks: [
      { kind: 'paragraph', parts: ['Hello,'] },
      {
        kind: 'paragraph',
        parts: [`Your ${count} ready. The download links on the order page are refreshed each time you open it.`],
      },
      { kind: 'button', text: 'Download your images', href: statusUrl },
      ...galleries,
      ...(input.notice ? [{ kind: 'paragraph', parts: [input.notice] } satisfies Block] : []),
      ...receipt,
      {
        kind: 'paragraph',
        parts: [
          'Questions? Reply to this e-mail or write to ',
          mailto(input.supportEmail),
          '. You can delete your photos and images at any time from the order status page.',
        ],
      },
      { kind: 'paragraph', parts: [`Thanks for using ${brand}!`] },
    ],
  };
}

export function renderOrderEmail(input: OrderEmailInput): RenderedEmail {
  return renderEmail(orderEmail(input));
}
