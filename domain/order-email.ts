/**
 * The order e-mail: sent once when a paid order is finished, with links to the status page and each photo's gallery.
 * Pure text building; lambdas/lib/mail.ts sends it. Links point at the site (never at presigned URLs, which expire).
 */
export interface OrderEmailInput {
  brand: string;
  siteUrl: string;
  /** Where to write with questions (also the e-mail's Reply-To). */
  supportEmail: string;
  generationId: string;
  status: 'completed' | 'failed';
  /** Photos with at least one delivered image, in order. */
  galleryHashes: string[];
  delivered: number;
  /** Customer-facing note about failed items and the refund, if any. */
  notice: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderOrderEmail(input: OrderEmailInput): RenderedEmail {
  const site = input.siteUrl.replace(/\/+$/, '');
  const statusUrl = `${site}/status/${encodeURIComponent(input.generationId)}`;
  const galleries = input.galleryHashes.map((hash, i) => ({ label: `Photo ${i + 1}`, url: `${site}/image/${hash}` }));
  const brand = input.brand;

  if (input.status === 'failed') {
    const subject = `${brand}: we could not create your images`;
    const lines = [
      'Hello,',
      '',
      input.notice ?? 'We could not generate your images.',
      '',
      `Order status: ${statusUrl}`,
      '',
      `Sorry about that. Reply to this e-mail or write to ${input.supportEmail} if you need help.`,
      `— ${brand}`,
    ];
    const html = page(brand, [
      `<p>Hello,</p>`,
      `<p>${escapeHtml(input.notice ?? 'We could not generate your images.')}</p>`,
      `<p><a href="${escapeHtml(statusUrl)}">View your order status</a></p>`,
      `<p>Sorry about that. Reply to this e-mail or write to ${mailto(input.supportEmail)} if you need help.<br>— ${escapeHtml(brand)}</p>`,
    ]);
    return { subject, html, text: lines.join('\n') };
  }

  const count = `${input.delivered} ${input.delivered === 1 ? 'image is' : 'images are'}`;
  const subject = `${brand}: your cartoon images are ready`;
  const text = [
    'Hello,',
    '',
    `Your ${count} ready. Download them here (the download links on the page are refreshed each time you open it):`,
    statusUrl,
    '',
    ...(galleries.length ? ['Galleries by photo:', ...galleries.map((g) => `  ${g.label}: ${g.url}`), ''] : []),
    ...(input.notice ? [input.notice, ''] : []),
    `Questions? Reply to this e-mail or write to ${input.supportEmail}. You can delete your photos and images at any time from the order status page.`,
    '',
    `Thanks for using ${brand}!`,
  ].join('\n');
  const html = page(brand, [
    `<p>Hello,</p>`,
    `<p>Your ${escapeHtml(count)} ready.</p>`,
    `<p><a href="${escapeHtml(statusUrl)}" style="display:inline-block;padding:10px 18px;background:#6d28d9;color:#ffffff;border-radius:6px;text-decoration:none">Download your images</a></p>`,
    galleries.length
      ? `<p>Galleries by photo:</p><ul>${galleries.map((g) => `<li><a href="${escapeHtml(g.url)}">${escapeHtml(g.label)}</a></li>`).join('')}</ul>`
      : '',
    input.notice ? `<p>${escapeHtml(input.notice)}</p>` : '',
    `<p>Questions? Reply to this e-mail or write to ${mailto(input.supportEmail)}. You can delete your photos and images at any time from the order status page.</p>`,
    `<p>Thanks for using ${escapeHtml(brand)}!</p>`,
  ]);
  return { subject, html, text };
}

const mailto = (address: string) => `<a href="mailto:${escapeHtml(address)}">${escapeHtml(address)}</a>`;

function page(brand: string, blocks: string[]): string {
  return (
    `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#111827">` +
    `<h1 style="font-size:20px">${escapeHtml(brand)}</h1>${blocks.filter(Boolean).join('')}</body></html>`
  );
}
