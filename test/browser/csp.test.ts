import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { REPO_ROOT } from '../../domain/repo-paths';
import { contentSecurityPolicy } from '../../domain/security-headers';
import { prerenderedPaths } from '../../lib/site-function';
import { api, sha256, uploadHeaders } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import { newContext } from './site-helpers';

/**
 * The site's Content-Security-Policy (domain/security-headers.ts, served by the local gateway as CloudFront serves it)
 * against the real app in Chromium: every page loads with no violation, and what the app does with the media bucket
 * (PUT an upload, show a preview) is allowed. A policy that blocked any of it would fail here.
 */
describe('Content-Security-Policy in the browser', () => {
  const site = useRuntimeAndBrowser();

  /** Opens `path` and returns the CSP violations the page reported (events and console), plus its page errors. */
  async function visit(
    path: string,
    act?: (page: Page) => Promise<void>,
  ): Promise<{ violations: string[]; header: string | null }> {
    const page = await (await newContext(site.browser)).newPage();
    const violations: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __csp: string[] }).__csp ??= [];
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(`${path}: ${m.text()}`);
    });
    const res = await page.goto(site.runtime.url + path, { waitUntil: 'load' });
    if (act) await act(page);
    await page.waitForTimeout(100);
    violations.push(
      ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).map(
        (v) => `${path}: ${v}`,
      ),
    );
    const header = res?.headers()['content-security-policy'] ?? null;
    await page.context().close();
    return { violations, header };
  }

  test('every page loads without a CSP violation, under the policy the stack defines', async () => {
    const pages = [
      ...prerenderedPaths(REPO_ROOT),
      '/status/00000000-0000-0000-0000-000000000000',
      `/image/${'a'.repeat(64)}`,
      `/image/${'a'.repeat(64)}/anime`,
      '/no-such-page',
    ];
    expect(pages.length).toBeGreaterThan(10);
    const expected = contentSecurityPolicy({ mediaOrigin: new URL(site.runtime.s3Url).origin, https: false });
    const all: string[] = [];
    for (const path of pages) {
      const { violations, header } = await visit(path);
      expect(header).toBe(expected);
      all.push(...violations);
    }
    expect(all).toEqual([]);
  }, 600_000);

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
