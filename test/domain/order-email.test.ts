import { renderEmail } from '../../domain/email-template';
import { type OrderEmailInput, renderOrderEmail } from '../../domain/order-email';
import { receiptLines } from '../../domain/order-receipt';
import { orderSummary } from '../../domain/pricing';

/** An order of 2 photos × 3 styles as checkout prices it: 6 images at $0.65, $3.90, 30 % off. */
const summary = orderSummary(2, 3);
const bought = {
  photos: 2,
  styles: ['3d', 'anime', 'comic'],
  generations: summary.totalGenerations,
  pricePerImage: summary.pricePerGeneration,
  originalPrice: summary.originalPrice,
  discount: summary.discount,
  total: summary.total,
};

const base: OrderEmailInput = {
  brand: 'Toon<Zap>',
  siteUrl: 'https://toonzap.example/',
  supportEmail: 'help@toonzap.example',
  generationId: 'g-1',
  status: 'completed',
  galleryShareIds: ['h1', 'h2'],
  delivered: 5,
  notice: '1 of 6 images could not be generated. $0.46 has been refunded to your card.',
  receipt: receiptLines({
    ...bought,
    refund: { amount: 46, items: 1, reasons: ['This image could not be generated.'] },
  }),
};

/** The HTML body's visible text, entities decoded, one space between words. */
const visible = (html: string) =>
  html
    .replace(/<\/?(a|strong)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('order receipt', () => {
  test('names what was bought, the discount, the amount paid and the refund with its reason', () => {
    expect(
      receiptLines({ ...bought, refund: { amount: 46, items: 1, reasons: ['This image could not be generated.'] } }),
    ).toEqual([
      {
        label: '6 images (2 photos × 3 styles) at $0.65',
        value: '$3.90',
        note: '3D Animation, Anime, Comic Book',
      },
      { label: 'Discount', value: '-$1.17' },
      { label: 'Paid', value: '$2.73', strong: true },
      { label: 'Refunded: 1 image not delivered', value: '-$0.46', note: 'This image could not be generated.' },
      { label: 'Paid after the refund', value: '$2.27', strong: true },
    ]);
  });

  test('without a refund or a discount there is no refund line and no discount line', () => {
    const lines = receiptLines({
      ...bought,
      photos: 1,
      styles: ['sketch'],
      generations: 1,
      pricePerImage: 80,
      originalPrice: 80,
      discount: 0,
      total: 80,
    });
    expect(lines).toEqual([
      { label: '1 image (1 photo × 1 style) at $0.80', value: '$0.80', note: 'Pencil Sketch' },
      { label: 'Paid', value: '$0.80', strong: true },
    ]);
  });
});

describe('order e-mail', () => {
  test('both bodies carry the links, the notice and every receipt line', () => {
    const mail = renderOrderEmail(base);
    expect(mail.subject).toBe('Toon<Zap>: your cartoon images are ready');
    for (const body of [mail.text, visible(mail.html)]) {
      expect(body).toContain('1 of 6 images could not be generated.');
      expect(body).toContain('help@toonzap.example');
      expect(body).toContain('Your receipt');
      expect(body).toMatch(
        /6 images \(2 photos × 3 styles\) at \$0\.65\s+(3D Animation, Anime, Comic Book\s+)?\$3\.90/,
      );
      expect(body).toContain('3D Animation, Anime, Comic Book');
      expect(body).toContain('This image could not be generated.');
      expect(body).toMatch(/Discount\s+-\$1\.17/);
      expect(body).toMatch(/Paid\s+\$2\.73/);
      expect(body).toMatch(/Refunded: 1 image not delivered\s+(This image could not be generated\.\s+)?-\$0\.46/);
      expect(body).toMatch(/Paid after the refund\s+\$2\.27/);
    }
    for (const url of [
      'https://toonzap.example/status/g-1',
      'https://toonzap.example/image/h1',
      'https://toonzap.example/image/h2',
    ]) {
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(`href="${url}"`);
    }
    expect(mail.html).toContain('href="mailto:help@toonzap.example"');
  });

  test('the HTML escapes what it shows', () => {
    const mail = renderOrderEmail({ ...base, notice: 'a <b>"bold"</b> & \'quoted\' note' });
    expect(mail.html).toContain('Toon&lt;Zap&gt;');
    expect(mail.html).toContain('a &lt;b&gt;&quot;bold&quot;&lt;/b&gt; &amp; &#39;quoted&#39; note');
    expect(mail.html).not.toContain('<Zap>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain('a <b>"bold"</b> & \'quoted\' note');
  });

  test('every sentence of the text body is in the HTML body, written once', () => {
    const mail = renderOrderEmail(base);
    const html = visible(mail.html);
    const sentences = mail.text
      .split('\n')
      .map((l) =>
        l
          .replace(/^\s*-\s*/, '')
          .replace(/\s*\(https?:[^)]*\)/g, '')
          .trim(),
      )
      // A receipt row's amount sits in its own table cell in HTML.
      .map((l) => l.replace(/\s{2,}-?\$[\d.,]+$/, ''))
      .filter((l) => l && !/^https?:/.test(l));
    expect(sentences.length).toBeGreaterThan(6);
    for (const s of sentences) expect(html).toContain(s.replace(/:$/, '').replace(/\s+/g, ' '));
  });

  test('a failed order says so, with the refund, the receipt and where to get help', () => {
    const failed = renderOrderEmail({
      ...base,
      brand: 'ToonZap',
      status: 'failed',
      galleryShareIds: [],
      delivered: 0,
      notice: 'We could not generate your images. $2.73 has been refunded to your card.',
      receipt: receiptLines({
        ...bought,
        refund: { amount: 273, items: 6, reasons: ['This image could not be generated.'] },
      }),
    });
    expect(failed.subject).toBe('ToonZap: we could not create your images');
    for (const body of [failed.text, visible(failed.html)]) {
      expect(body).toContain('$2.73 has been refunded to your card.');
      expect(body).toMatch(/Refunded: 6 images not delivered\s+(This image could not be generated\.\s+)?-\$2\.73/);
      expect(body).toMatch(/Paid after the refund\s+\$0\.00/);
      expect(body).toContain('write to help@toonzap.example if you need help.');
    }
    expect(failed.text).not.toContain('Galleries');
  });

  test('without an order record the e-mail still goes out, without a receipt', () => {
    const mail = renderOrderEmail({ ...base, receipt: null });
    expect(mail.text).not.toContain('Your receipt');
    expect(mail.html).not.toContain('Your receipt');
  });
});

describe('e-mail template', () => {
  test('links show their address in text, lists indent and tables align', () => {
    const mail = renderEmail({
      subject: 's',
      heading: 'h',
      blocks: [
        { kind: 'paragraph', parts: ['See ', { text: 'the page', href: 'https://x.example/p' }, '.'] },
        { kind: 'list', title: 'Items:', items: [['one'], ['two']] },
        {
          kind: 'table',
          title: 'Sum',
          rows: [
            { label: 'A', value: '$1.00', note: 'why <not>' },
            { label: 'Longer', value: '-$12.00', strong: true },
          ],
        },
      ],
    });
    expect(mail.text).toBe(
      'See the page (https://x.example/p).\n\nItems:\n  - one\n  - two\n\nSum\n  A         $1.00\n    why <not>\n  Longer  -$12.00\n',
    );
    expect(mail.html).toContain('<a href="https://x.example/p" style="color:#6d28d9">the page</a>');
    expect(mail.html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(mail.html).toMatch(/font-weight:bold">Longer<\/td>/);
    expect(mail.html).toContain('>why &lt;not&gt;</span>');
  });
});
