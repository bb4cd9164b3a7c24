import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import matter from 'gray-matter';
import { CONTENT_COLLECTIONS, type ContentCollection, slugFromFile } from '../../domain/site-routes';
import { siteUrl } from '../../frontend/build/site-url';
import { sortEntries } from '../../frontend/src/blog/content';
import { resolveFacts } from '../../frontend/src/blog/facts';
import { TEST_BROWSER_PATH, useRuntimeAndBrowser } from '../support/browser';

/**
 * What a search engine or a link preview sees: the HTML the server returns, read without running JavaScript
 * (plain fetch), the sitemap, robots.txt and the Atom feed; and Lighthouse's SEO score of an article.
 */

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function files(
  collection: ContentCollection,
): Array<{ slug: string; title: string; description: string; date?: string }> {
  const dir = path.resolve(__dirname, '../..', CONTENT_COLLECTIONS[collection].dir);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((f) => {
    const slug = slugFromFile(f);
    if (!slug) return [];
    const { data } = matter(fs.readFileSync(path.join(dir, f), 'utf8'));
    const date = data.date instanceof Date ? data.date.toISOString().slice(0, 10) : data.date;
    return [
      {
        slug,
        title: resolveFacts(String(data.title), f).replace(/\{brand\}/g, 'ToonZap'),
        description: resolveFacts(String(data.description), f).replace(/\{brand\}/g, 'ToonZap'),
        date,
      },
    ];
  });
}

/** The value of <meta name|property=...>, and every tag's count (each must be there exactly once). */
function meta(html: string, attr: 'name' | 'property', key: string): string {
  const found = [...html.matchAll(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`, 'g'))].map((m) =>
    decode(m[1]),
  );
  expect([key, found.length]).toEqual([key, 1]);
  return found[0];
}

describe('prerendered pages, sitemap, robots and feed', () => {
  const site = useRuntimeAndBrowser();
  const origin = siteUrl();
  const get = async (p: string) => {
    const res = await fetch(site.runtime.url + p);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  const blog = files('blog');
  const guides = files('guides');
  const pages: Array<[string, string, string, 'article' | 'website']> = [
    [
      '/blog/pixar-filter-ai-generator',
      `${blog.find((b) => b.slug === 'pixar-filter-ai-generator')?.title}`,
      `${blog.find((b) => b.slug === 'pixar-filter-ai-generator')?.description}`,
      'article',
    ],
    ['/terms', 'Terms of Service', 'The terms for using ToonZap', 'website'],
    ['/pricing', 'Simple, per-image pricing', 'ToonZap prices per cartoon image', 'website'],
    ...(guides[0]
      ? ([[`/guides/${guides[0].slug}`, guides[0].title, guides[0].description, 'article']] as Array<
          [string, string, string, 'article']
        >)
      : []),
  ];

  test.each(pages)(
    '%s: the HTML holds the text, title, description, canonical URL and social tags',
    async (p, heading, description, type) => {
      const page = await get(p);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/^text\/html/);
      const html = page.text;
      expect(decode(html)).toContain(`>${heading}</h1>`);
      expect(html.match(/<h1[ >]/g)).toHaveLength(1);
      const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      expect(title).toContain(type === 'article' ? `${heading} | ToonZap` : ' | ToonZap');
      expect(meta(html, 'name', 'description').startsWith(description)).toBe(true);
      const url = `${origin}${p}`;
      expect(decode(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '')).toBe(url);
      expect(meta(html, 'property', 'og:url')).toBe(url);
      expect(meta(html, 'property', 'og:type')).toBe(type);
      expect(meta(html, 'property', 'og:title')).toBe(type === 'article' ? heading : title);
      expect(meta(html, 'property', 'og:description')).toBe(meta(html, 'name', 'description'));
      expect(meta(html, 'property', 'og:image')).toMatch(new RegExp(`^${origin}/`));
      expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');
      expect(html).toContain(
        `<link rel="alternate" href="${origin}/feed.xml" type="application/atom+xml" title="ToonZap Blog"/>`,
      );
      if (type === 'article') {
        // The article's body and its closing block are in the HTML too.
        expect(html).toContain('<h2>');
        expect(html).toContain('Ready to Cartoonize Your Photos?');
        expect(html).toContain('Try ToonZap Now!');
      }
    },
  );

  test('the blog index lists every article newest first; the guides index every guide', async () => {
    for (const [p, entries] of [
      ['/blog', blog],
      ['/guides', guides],
    ] as const) {
      const html = (await get(p)).text;
      const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
      const listed = [...main.matchAll(new RegExp(`href="${p}/([a-z0-9-]+)"`, 'g'))].map((m) => m[1]);
      expect(listed).toEqual(sortEntries(entries).map((e) => e.slug));
    }
    // The spec registers 37 articles.
    expect(blog.length).toBeGreaterThanOrEqual(37);
    // The blog index links to the guides; the footer too.
    expect((await get('/blog')).text).toContain('href="/guides"');
  });

  test('sitemap.xml lists every article, guide and public page; robots.txt points to it', async () => {
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.type).toMatch(/xml/);
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const expected = [
      '/',
      '/pricing',
      '/terms',
      '/privacy',
      '/refund',
      '/blog',
      '/guides',
      ...blog.map((b) => `/blog/${b.slug}`),
      ...guides.map((g) => `/guides/${g.slug}`),
    ];
    expect([...locs].sort()).toEqual(expected.map((p) => origin + p).sort());
    const robots = await get('/robots.txt');
    expect(robots.type).toMatch(/^text\/plain/);
    expect(robots.text).toMatch(/^User-agent: \*$/m);
    expect(robots.text).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(robots.text).not.toMatch(/^Disallow: \/(blog|guides)?$/m);
  });

  test('sitemap and feed are well-formed XML; the feed is Atom with every article newest first', async () => {
    const page = await site.browser.newPage();
    try {
      const parse = (xml: string) =>
        page.evaluate((text) => {
          const doc = new DOMParser().parseFromString(text, 'application/xml');
          const error = doc.querySelector('parsererror');
          return {
            error: error?.textContent ?? null,
            root: doc.documentElement.namespaceURI + ' ' + doc.documentElement.localName,
            entries: [...doc.getElementsByTagName('entry')].map((e) => ({
              link: e.getElementsByTagName('link')[0]?.getAttribute('href'),
              title: e.getElementsByTagName('title')[0]?.textContent,
              updated: e.getElementsByTagName('updated')[0]?.textContent,
              id: e.getElementsByTagName('id')[0]?.textContent,
            })),
            feedTitle: doc.documentElement.getElementsByTagName('title')[0]?.textContent,
          };
        }, xml);
      const sitemap = await parse((await get('/sitemap.xml')).text);
      expect(sitemap.error).toBeNull();
      expect(sitemap.root).toBe('http://www.sitemaps.org/schemas/sitemap/0.9 urlset');
      const feed = await parse((await get('/feed.xml')).text);
      expect(feed.error).toBeNull();
      expect(feed.root).toBe('http://www.w3.org/2005/Atom feed');
      expect(feed.feedTitle).toBe('ToonZap Blog');
      const sorted = sortEntries(blog);
      expect(feed.entries.map((e) => e.link)).toEqual(sorted.map((b) => `${origin}/blog/${b.slug}`));
      expect(feed.entries.map((e) => e.title)).toEqual(sorted.map((b) => b.title));
      for (const e of feed.entries) {
        expect(e.id).toBe(e.link);
        expect(e.updated).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      }
    } finally {
      await page.close();
    }
  });

  test('Lighthouse SEO scores 100 on an article', async () => {
    // Lighthouse is ES modules only: it runs in its own Node process, as in bench/site.ts.
    const script = `
      import { launch } from 'chrome-launcher';
      import lighthouse from 'lighthouse';
      const chrome = await launch({ chromePath: process.argv[1], chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
      try {
        const { lhr } = await lighthouse(process.argv[2], { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['seo'] });
        const failed = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
          .map((a) => a.id + ': ' + a.title);
        console.log(JSON.stringify({ score: lhr.categories.seo.score, failed }));
      } finally {
        chrome.kill();
      }`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, TEST_BROWSER_PATH, `${site.runtime.url}/blog/pixar-filter-ai-generator`],
      {
        cwd: path.resolve(__dirname, '../..'),
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { score: number; failed: string[] };
    expect(result.failed).toEqual([]);
    expect(result.score).toBe(1);
  });
});
