/**
 * Writes the static site around the client build in frontend/dist: every prerendered route as
 * `<path>/index.html` (the page's markup in #root, its head in <head>; React renders over it on load; the
 * landing is index.html), the app shell app.html, 404.html, sitemap.xml, robots.txt and the Atom feed (feed.xml).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTENT_COLLECTIONS, contentPath } from '../../domain/site-routes';
import { APP_SHELL_FILE, NOT_FOUND_FILE, NOT_FOUND_PATH, pageFile, prerenderedPaths, sitemapPaths } from '../../lib/site-function';
import type { ContentEntry } from '../src/blog/content';
import type { PageHead } from '../src/lib/head-tags';

/** What the SSR build of frontend/src/entry-server.tsx exports. */
interface ServerEntry {
  render(path: string): Promise<{ html: string; head: string }>;
  renderHead(head: PageHead): string;
  defaultHead(): PageHead;
  entries: ContentEntry[];
  SITE_ORIGIN: string;
  FEED_TITLE: string;
}

const HEAD_BLOCK = /<!--head:[^>]*-->[\s\S]*?<!--\/head-->/;
const ROOT = '<div id="root"></div>';

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function atomFeed(origin: string, title: string, entries: ContentEntry[]): string {
  const dated = entries.filter((e) => e.date);
  const updated = dated.length ? `${dated[0].date}T00:00:00Z` : '1970-01-01T00:00:00Z';
  const items = entries.map((e) => {
    const url = `${origin}${contentPath(e.collection, e.slug)}`;
    return [
      '  <entry>',
      `    <title>${xml(e.title)}</title>`,
      `    <link href="${xml(url)}"/>`,
      `    <id>${xml(url)}</id>`,
      `    <updated>${e.date ? `${e.date}T00:00:00Z` : updated}</updated>`,
      ...(e.description ? [`    <summary>${xml(e.description)}</summary>`] : []),
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${xml(title)}</title>`,
    `  <link href="${xml(`${origin}/blog`)}"/>`,
    `  <link rel="self" href="${xml(`${origin}/feed.xml`)}"/>`,
    `  <id>${xml(`${origin}/blog`)}</id>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${xml(title)}</name></author>`,
    ...items,
    '</feed>',
    '',
  ].join('\n');
}

export function sitemap(origin: string, paths: string[], lastmod: Map<string, string>): string {
  const urls = paths.map((p) => {
    const mod = lastmod.get(p);
    return `  <url><loc>${xml(`${origin}${p}`)}</loc>${mod ? `<lastmod>${mod}</lastmod>` : ''}</url>`;
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

export function robots(origin: string): string {
  // Status pages are one customer's order: not for anyone's crawler. Share pages (/image/) must be readable by the
  // crawlers that draw link previews (X's obeys robots.txt), with their card (the longest rule wins, RFC 9309);
  // they carry noindex for search engines instead.
  return [
    'User-agent: *',
    'Allow: /',
    'Allow: /api/share-card/',
    'Disallow: /api/',
    'Disallow: /status/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export async function prerender(opts: { repoRoot: string; dist: string; serverEntry: string }): Promise<number> {
  const server = (await import(pathToFileURL(opts.serverEntry).href)) as ServerEntry;
  const shellFile = path.join(opts.dist, 'index.html');
  const shell = fs.readFileSync(shellFile, 'utf8');
  if (!HEAD_BLOCK.test(shell) || !shell.includes(ROOT)) throw new Error('frontend/index.html lost its <!--head:...--> block or empty #root');
  const page = (head: string, html: string) => shell.replace(HEAD_BLOCK, () => head).replace(ROOT, () => `<div id="root">${html}</div>`);

  const paths = prerenderedPaths(opts.repoRoot);
  let notFoundHead = '';
  const built = new Set(server.entries.map((e) => contentPath(e.collection, e.slug)));
  for (const p of paths) {
    if (p.split('/').length > 2 && Object.values(CONTENT_COLLECTIONS).some((c) => p.startsWith(`${c.base}/`)) && !built.has(p)) {
      throw new Error(`${p} has a Markdown file but no entry in the build`);
    }
    const { html, head } = await server.render(p);
    if (p === NOT_FOUND_PATH) notFoundHead = head;
    const file = path.join(opts.dist, pageFile(p));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, page(head, html));
  }
  // The body of every 404 answer (embedded in the CloudFront Function, which allows 10 KB): the not-found head
  // and the app, which shows the not-found page for the unknown path.
  if (!notFoundHead) throw new Error(`${NOT_FOUND_PATH} is not prerendered`);
  fs.writeFileSync(path.join(opts.dist, NOT_FOUND_FILE), page(notFoundHead, ''));
  // The app shell (/status/..., /image/...): the site's default head, no canonical URL.
  fs.writeFileSync(path.join(opts.dist, APP_SHELL_FILE), page(server.renderHead(server.defaultHead()), ''));

  const origin = server.SITE_ORIGIN;
  const lastmod = new Map(server.entries.filter((e) => e.date).map((e) => [contentPath(e.collection, e.slug), e.date as string]));
  fs.writeFileSync(path.join(opts.dist, 'sitemap.xml'), sitemap(origin, sitemapPaths(opts.repoRoot), lastmod));
  fs.writeFileSync(path.join(opts.dist, 'robots.txt'), robots(origin));
  fs.writeFileSync(path.join(opts.dist, 'feed.xml'), atomFeed(origin, server.FEED_TITLE, server.entries.filter((e) => e.collection === 'blog')));
  return paths.length;
}
