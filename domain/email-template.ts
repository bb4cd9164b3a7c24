/**
 * An e-mail written once as a list of blocks and rendered to both bodies: plain text and HTML. Each sentence lives
 * in one place, so the two bodies cannot drift apart. Everything shown is text and is escaped in the HTML body.
 */

/** A piece of a sentence: plain text or a link (mailto: links show their address in the text body). */
export type Inline = string | { text: string; href: string };

export type Block =
  | { kind: 'paragraph'; parts: Inline[] }
  /** The main call to action: a button in HTML, the label and the address on their own lines in text. */
  | { kind: 'button'; text: string; href: string }
  | { kind: 'list'; title: string; items: Inline[][] }
  /** Label and amount rows (a receipt); `strong` rows are totals, a `note` is a detail under the label. */
  | { kind: 'table'; title: string; rows: TableRow[] };

export interface TableRow {
  label: string;
  value: string;
  note?: string;
  strong?: boolean;
}

export interface EmailTemplate {
  subject: string;
  /** The HTML body's heading (the text body starts with its first block). */
  heading: string;
  blocks: Block[];
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

import { escapeHtml } from './html';

export { escapeHtml };

export const link = (text: string, href: string): Inline => ({ text, href });
export const mailto = (address: string): Inline => ({ text: address, href: `mailto:${address}` });

function inlineText(part: Inline): string {
  if (typeof part === 'string') return part;
  // A mailto link already shows its address; any other link shows where it goes.
  return part.href === `mailto:${part.text}` || part.href === part.text ? part.text : `${part.text} (${part.href})`;
}

function inlineHtml(part: Inline): string {
  if (typeof part === 'string') return escapeHtml(part);
  return `<a href="${escapeHtml(part.href)}" style="color:#6d28d9">${escapeHtml(part.text)}</a>`;
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.parts.map(inlineText).join('');
    case 'button':
      return `${block.text}:\n${block.href}`;
    case 'list':
      return [block.title, ...block.items.map((item) => `  - ${item.map(inlineText).join('')}`)].join('\n');
    case 'table': {
      // Amounts right-aligned in one column, as on a paper receipt.
      const width = Math.max(...block.rows.map((r) => r.label.length));
      const amount = Math.max(...block.rows.map((r) => r.value.length));
      const rows = block.rows.flatMap((r) => [
        `  ${r.label.padEnd(width)}  ${r.value.padStart(amount)}`,
        ...(r.note ? [`    ${r.note}`] : []),
      ]);
      return [block.title, ...rows].join('\n');
    }
  }
}

const BUTTON =
  'display:inline-block;padding:10px 18px;background:#6d28d9;color:#ffffff;border-radius:6px;text-decoration:none';
const CELL = 'padding:4px 0;vertical-align:top';

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p>${block.parts.map(inlineHtml).join('')}</p>`;
    case 'button':
      return `<p><a href="${escapeHtml(block.href)}" style="${BUTTON}">${escapeHtml(block.text)}</a></p>`;
    case 'list':
      return `<p>${escapeHtml(block.title)}</p><ul>${block.items.map((i) => `<li>${i.map(inlineHtml).join('')}</li>`).join('')}</ul>`;
    case 'table': {
      const rows = block.rows.map((r) => {
        const weight = r.strong ? ';font-weight:bold' : '';
        return (
          `<tr><td style="${CELL};padding-right:16px${weight}">${escapeHtml(r.label)}` +
          (r.note ? `<br><span style="font-size:13px;color:#4b5563">${escapeHtml(r.note)}</span>` : '') +
          '</td>' +
          `<td style="${CELL};text-align:right;white-space:nowrap${weight}">${escapeHtml(r.value)}</td></tr>`
        );
      });
      return (
        `<p style="margin-bottom:4px"><strong>${escapeHtml(block.title)}</strong></p>` +
        `<table role="presentation" style="border-collapse:collapse;width:100%;max-width:480px">${rows.join('')}</table>`
      );
    }
  }
}

export function renderEmail(template: EmailTemplate): RenderedEmail {
  const text = template.blocks.map(blockText).join('\n\n');
  const html =
    '<!doctype html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"></head>' +
    '<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111827">' +
    `<div style="max-width:560px;margin:0 auto"><h1 style="font-size:20px">${escapeHtml(template.heading)}</h1>` +
    `${template.blocks.map(blockHtml).join('')}</div></body></html>`;
  return { subject: template.subject, html, text: `${text}\n` };
}
