import { escapeHtml } from '../../domain/html';
import type { HttpResult } from './http';
import { logger } from './observability';
import { settings } from './settings';
import { openShare } from './share-access';

/**
 * Share pages (`/image/{id}` and `/image/{id}/{style}`) as HTML with the share's own social card. Social networks
 * read a page's tags without running its script, so the app shell is served here with the share's title, picture
 * (its share card, made at delivery) and URL in place of the site's defaults; the browser then runs the app as on
 * any app route. Search engines are kept out (noindex); the crawlers that make link previews may read them.
 * Cheap: one share read, one generation read, and the shell, fetched from the site and kept for a minute.
 */

const SHELL_TTL_MS = 60_000;
let shell: { html: string; at: number } | null = null;

/** The site's app shell (what CloudFront serves for app routes), fetched from the site itself. */
async function appShell(): Promise<string> {
  if (shell && Date.now() - shell.at < SHELL_TTL_MS) return shell.html;
  const res = await fetch(`${settings.siteUrl}/app.html`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`app shell: ${res.status}`);
  shell = { html: await res.text(), at: Date.now() };
  return shell.html;
}

/** The shell with its head's title, description, canonical and social tags replaced by these. */
export function withHead(html: string, head: { title: string; description: string; url: string; image?: string }) {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}"/>`,
    '<meta name="robots" content="noindex"/>',
    `<link rel="canonical" href="${escapeHtml(head.url)}"/>`,
    '<meta property="og:type" content="website"/>',
    `<meta property="og:title" content="${escapeHtml(head.title)}"/>`,
    `<meta property="og:description" content="${escapeHtml(head.description)}"/>`,
    `<meta property="og:url" content="${escapeHtml(head.url)}"/>`,
    '<meta name="twitter:card" content="summary_large_image"/>',
    `<meta name="twitter:title" content="${escapeHtml(head.title)}"/>`,
    `<meta name="twitter:description" content="${escapeHtml(head.description)}"/>`,
    ...(head.image
      ? [
          `<meta property="og:image" content="${escapeHtml(head.image)}"/>`,
          '<meta property="og:image:width" content="1200"/>',
          '<meta property="og:image:height" content="630"/>',
          `<meta name="twitter:image" content="${escapeHtml(head.image)}"/>`,
        ]
      : []),
  ].join('');
  return html
    .replace(/<title>[\s\S]*?<\/title>/i, '')
    .replace(/<meta\s+(?:name|property)="(?:description|robots|og:[^"]*|twitter:[^"]*)"[^>]*>/gi, '')
    .replace(/<link\s+rel="canonical"[^>]*>/gi, '')
    .replace(/<\/head>/i, `${tags}</head>`);
}

const html = (statusCode: number, body: string): HttpResult => ({
  statusCode,
  // Never cached: a deleted order's page must be gone at once. X-Robots-Tag as well, for crawlers that skip meta.
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-robots-tag': 'noindex' },
  body,
});

export async function sharePage(shareId: string, styleId?: string): Promise<HttpResult> {
  const [open, page] = await Promise.all([
    openShare(shareId),
    appShell().catch((err: Error) => {
      logger.error('app shell not reachable', { error: err });
      return null;
    }),
  ]);
  if (!page) return html(503, '<!doctype html><title>Please try again</title><p>Please try again in a moment.</p>');
  const style = styleId === undefined ? open?.styles[0] : open?.styles.find((s) => s.id === styleId);
  const brand = settings.brandName;
  const path = `/image/${encodeURIComponent(shareId)}${styleId === undefined ? '' : `/${encodeURIComponent(styleId)}`}`;
  const url = `${settings.siteUrl}${path}`;
  // Not found: the app shell still (its page says so in the spec's words), with a 404 and no picture.
  if (!open || !style) {
    return html(404, withHead(page, { title: `Not found | ${brand}`, description: 'Image or style not found.', url }));
  }
  const title =
    styleId === undefined
      ? `My photo in ${open.styles.length === 1 ? `the ${style.name} style` : `${open.styles.length} cartoon styles`} | ${brand}`
      : `My photo in the ${style.name} style | ${brand}`;
  return html(
    200,
    withHead(page, {
      title,
      description: `Made with ${brand}: turn your own photos into cartoon-style art.`,
      url,
      image: `${settings.siteUrl}/api/share-card/${encodeURIComponent(shareId)}/${encodeURIComponent(style.id)}`,
    }),
  );
}
