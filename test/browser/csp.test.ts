import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { FRONTEND_DIST, REPO_ROOT } from '../../domain/repo-paths';
import { contentSecurityPolicy } from '../../domain/security-headers';
import { pageFile, prerenderedPaths } from '../../lib/site-function';
import { api, sha256, uploadHeaders } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import { newContext } from './site-helpers';

/**
 * The site's Content-Security-Policy (domain/security-headers.ts, served by the local gateway as CloudFront serves it)
 * against the real app in Chromium: a page of each kind loads with no violation, every built page asks only for what
 * the policy allows, and what the app does with the media bucket (PUT an upload, show a preview) is allowed. A policy
 * that blocked any of it would fail here.
 */
describe('Content-Security-Policy in the browser', () => {
  const site = useRuntimeAndBrowser();

  /** A page that records the CSP violations each document it loads reports (events and console). */
  async function watchedPage(): Promise<{ page: Page; logged: string[] }> {
    const page = await (await newContext(site.browser)).newPage();
    const logged: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __csp: string[] }).__csp ??= [];
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) logged.push(`${page.url()}: ${m.text()}`);
    });
    return { page, logged };
  }

  /** Opens `path` in `watched` (a new page unless given) and returns the violations it reported, and its policy. */
  async function visit(
    path: string,
    act?: (page: Page) => Promise<void>,
    watched?: { page: Page; logged: string[] },
  ): Promise<{ violations: string[]; header: string | null }> {
    const { page, logged } = watched ?? (await watchedPage());
    const res = await page.goto(site.runtime.url + path, { waitUntil: 'load' });
    if (act) await act(page);
    await page.waitForTimeout(100);
    const violations = [
      ...logged.splice(0),
      ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).map(
        (v) => `${path}: ${v}`,
      ),
    ];
    const header = res?.headers()['content-security-policy'] ?? null;
    if (!watched) await page.context().close();
    return { violations, header };
  }

  /**
   * One page of each kind in Chromium: pages of a kind share their template, scripts and styles, so a violation
   * shows on the first of them. What differs between pages of a kind (their content) is read from every built file
   * below.
   */
  test('a page of each kind loads without a CSP violation, under the policy the stack defines', async () => {
    const prerendered = prerenderedPaths(REPO_ROOT);
    const firstOf = (prefix: string) => prerendered.find((p) => p.startsWith(prefix))!;
    const pages = [
      ...prerendered.filter((p) => p.split('/').length === 2),
      firstOf('/blog/'),
      firstOf('/guides/'),
      '/status/00000000-0000-0000-0000-000000000000',
      `/image/${'a'.repeat(64)}`,
      `/image/${'a'.repeat(64)}/anime`,
      '/no-such-page',
    ];
    expect(pages).toEqual(expect.arrayContaining(['/', '/pricing', '/blog', '/guides']));
    const expected = contentSecurityPolicy({ mediaOrigin: new URL(site.runtime.s3Url).origin, https: false });
    const all: string[] = [];
    // One tab goes from page to page, as a visitor does; each load is a new document with its own policy.
    const watched = await watchedPage();
    for (const page of pages) {
      const { violations, header } = await visit(page, undefined, watched);
      expect(header).toBe(expected);
      all.push(...violations);
    }
    await watched.page.context().close();
    expect(all).toEqual([]);
  });

  test('every prerendered page asks only for what the policy allows: own scripts, no inline code, own files', () => {
    const found: string[] = [];
    const paths = prerenderedPaths(REPO_ROOT);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const html = fs.readFileSync(path.join(FRONTEND_DIST, pageFile(p)), 'utf8');
      for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
        if (!/\ssrc="\/[^/]/.test(tag)) found.push(`${p}: inline or foreign script ${tag}`);
      for (const m of html.matchAll(/<[a-z]+\b[^>]*\s(on[a-z]+)=/g)) found.push(`${p}: inline handler ${m[1]}`);
      for (const m of html.matchAll(/<(iframe|object|embed|frame)\b/g)) found.push(`${p}: <${m[1]}>`);
      // what the page loads: images, sources, stylesheets, icons, preloads (links to other sites are not loads)
      const loads = [
        ...html.matchAll(/<(?:img|source|video|audio)\b[^>]*\s(?:src|srcset)="([^"]*)"/g),
        ...html.matchAll(
          /<link\b(?=[^>]*\srel="(?:stylesheet|icon|preload|modulepreload|manifest)")[^>]*\shref="([^"]*)"/g,
        ),
      ].flatMap((m) => m[1].split(',').map((u) => u.trim().split(/\s+/)[0]));
      for (const url of loads) if (!/^(\/[^/]|data:)/.test(url)) found.push(`${p}: loads ${url}`);
    }
    expect(found).toEqual([]);
  });

  test('the app may PUT an upload to the media bucket and show images from it', async () => {
    const client = api(site.runtime.url);
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff8800' } })
      .png()
      .toBuffer();
    const hash = sha256(bytes);
    const reg = await client.post('/api/upload-image', {
      image_hash: hash,
      file_type: 'image/png',
      file_size: bytes.length,
    });
    expect(reg.body.status).toBe('upload');
    const { violations } = await visit('/', async (page) => {
      const outcome = await page.evaluate(
        async ({ url, headers, body, origin }) => {
          const put = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) }).then(
            (r) => r.status,
            (e) => String(e),
          );
          // An image from the bucket's origin (this one is not there: it errors, but the policy must let it be asked for).
          const img = await new Promise<string>((resolve) => {
            const el = document.createElement('img');
            el.onload = () => resolve('loaded');
            el.onerror = () => resolve('error');
            el.src = `${origin}/nothing.png`;
            document.body.append(el);
          });
          return { put, img };
        },
        {
          url: reg.body.url.url as string,
          headers: uploadHeaders(hash, 'image/png'),
          body: [...bytes],
          origin: new URL(site.runtime.s3Url).origin,
        },
      );
      expect(outcome.put).toBe(200);
    });
    expect(violations).toEqual([]);
    // A URL outside the policy is blocked: the check can fail.
    const blocked = await visit('/', async (page) => {
      await page.evaluate(() => fetch('http://127.0.0.9:9/x').catch(() => null));
    });
    expect(blocked.violations.join('\n')).toMatch(/connect-src/);
  });
});
