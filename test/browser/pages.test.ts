import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { siteUrl } from '../../frontend/build/site-url';
import { PHOTOS } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import { captureFileChoosers, mainText, newContext, SPEC_TAGLINE } from './site-helpers';

/**
 * Every page a visitor reaches without an order, in Chromium against the local runtime: the landing shell, the
 * static pages, the blog, the not-found page and the error states of the status, image and gallery pages.
 */
describe('site pages in the browser', () => {
  const site = useRuntimeAndBrowser();
  let brand: string;
  const errors: string[] = [];

  beforeAll(async () => {
    brand = ((await (await fetch(`${site.runtime.url}/api/config`)).json()) as { brand: string }).brand;
    expect(brand).toBeTruthy();
  });
  afterEach(() => {
    // No page of the site may throw.
    expect(errors.splice(0)).toEqual([]);
  });

  /** A fresh page at `path`; `beforeGoto` sets up what must exist before the first navigation. */
  async function open(path: string, beforeGoto?: (page: Page) => void): Promise<Page> {
    const context = await newContext(site.browser);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    beforeGoto?.(page);
    await page.goto(site.runtime.url + path);
    return page;
  }

  test('landing: brand, the exact tagline, one Get Started button, header, footer links and the Notifications region', async () => {
    const page = await open('/');
    await page.getByRole('button', { name: 'Get Started' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(brand);
    expect(await page.getByText(SPEC_TAGLINE, { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Get Started' }).count()).toBe(1);
    expect(await page.title()).toBe(`${brand} – AI Cartoon Photo Transformer`);

    const header = page.getByRole('banner');
    expect(await header.getByText(brand, { exact: true }).count()).toBe(1);
    expect(await header.getByText('AI Cartoon Photo Transformer', { exact: true }).isVisible()).toBe(true);

    const footer = page.getByRole('contentinfo');
    const links = await footer
      .getByRole('link')
      .evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      // The support address (lib/config.ts supportEmail; the local default), then the spec's links and the guides.
      ['support@toonzap.example', 'mailto:support@toonzap.example'],
      ['Terms', '/terms'],
      ['Privacy', '/privacy'],
      ['Refund', '/refund'],
      ['Pricing', '/pricing'],
      ['Blog', '/blog'],
      ['Guides', '/guides'],
    ]);
    expect(await page.getByRole('region', { name: 'Notifications' }).count()).toBe(1);

    // A footer link hands over from the router-free shell to the app, which has its own notification region.
    await footer.getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Simple, per-image pricing' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/pricing');
    expect(await page.getByRole('region', { name: 'Notifications' }).count()).toBe(1);
    // Back returns to the landing, now rendered by the app.
    await page.goBack();
    await page.getByText(SPEC_TAGLINE, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    expect(await page.getByText('0 of 50 files selected').isVisible()).toBe(true);
    await page.context().close();
  });

  test('keyboard only: skip link, Tab to Get Started, Enter opens the upload step with focus on it', async () => {
    let choosers!: ReturnType<typeof captureFileChoosers>;
    const page = await open('/', (p) => (choosers = captureFileChoosers(p)));
    await page.getByRole('button', { name: 'Get Started' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'Get Started');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    // Focus moved to the step (the shell's button is gone): the very next Tab reaches the drop zone.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () =>
          document.activeElement?.getAttribute('role') === 'button' &&
          /Drag & drop/.test(document.activeElement.textContent ?? ''),
      ),
    ).toBe(true);
    // Enter and Space each open the file chooser; files picked there are selected.
    const picks: Array<[string, string]> = [
      ['Enter', 'astronaut.png'],
      ['Space', 'rocket.jpg'],
    ];
    for (const [i, [key, photo]] of picks.entries()) {
      await page.keyboard.press(key);
      const chooser = await choosers.next();
      expect(choosers.opened).toBe(i + 1);
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles(path.join(PHOTOS, photo));
      await page.getByText(`${i + 1} of 50 files selected`).waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('button');
    }
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(2);
    await page.context().close();
  });

  test('pricing: every tier and the 1 image and 3 styles example', async () => {
    const page = await open('/pricing');
    await page.getByRole('heading', { level: 1, name: 'Simple, per-image pricing' }).waitFor();
    // cell by cell from the DOM: innerText of a row that hydration is replacing has no layout and loses the cells'
    // separators (seen once on a loaded CI machine: '1 style$0.80')
    const rows = await page
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from((tr as HTMLTableRowElement).cells, (c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()).join(
            ' ',
          ),
        ),
      );
    expect(rows).toEqual([
      '1 style $0.80',
      '2 styles $0.70',
      '3 styles $0.65',
      '4 styles $0.60',
      '5 or more styles Best value $0.50',
    ]);
    const text = await mainText(page);
    expect(text).toContain('1 image and 3 styles = 3 images at $0.65 = $1.95 list price, before discount.');
    expect(text).toContain('30% off');
    expect(text).toMatch(/PNG/);
    expect(await page.title()).toBe(`Pricing | ${brand}`);
    await page.context().close();
  });

  test.each([
    ['/terms', 'Terms of Service', ['illegal', 'NSFW', 'hateful', 'outputs are final']],
    ['/privacy', 'Privacy Policy', ['GDPR', 'e-mail', 'access']],
    ['/refund', 'Refund Policy', ['7 days', '5–7 business days', 'technical']],
  ])('%s: heading, brand and its content', async (path, title, phrases) => {
    const page = await open(path);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(`${title} | ${brand}`);
    expect(await page.locator('main h2').count()).toBeGreaterThan(1);
    const text = await mainText(page);
    expect(text).toContain(brand);
    for (const p of phrases) expect(text.toLowerCase()).toContain(p.toLowerCase());
    await page.context().close();
  });

  test('blog: index newest first, an article with its closing block and meta tags, unknown slug replaced by /404', async () => {
    const page = await open('/blog');
    await page.getByRole('heading', { level: 1, name: `The ${brand} Blog` }).waitFor();
    const cards = await page.locator('main li a').evaluateAll((as) =>
      as.map((a) => ({
        href: a.getAttribute('href') ?? '',
        date: a.querySelector('time')?.getAttribute('datetime') ?? '',
        title: a.querySelector('h2')?.textContent ?? '',
      })),
    );
    expect(cards.length).toBeGreaterThan(1);
    for (const c of cards) expect(c.href).toMatch(/^\/blog\/[a-z0-9-]+$/);
    const dates = cards.map((c) => c.date).filter(Boolean);
    expect(dates).toEqual([...dates].sort().reverse());

    const first = cards[0];
    await page.locator(`main a[href="${first.href}"]`).click();
    await page.getByRole('heading', { level: 1, name: first.title }).waitFor();
    expect(await page.title()).toBe(`${first.title} | ${brand} Blog`);
    expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('article');
    // Canonical and social URLs name the origin the build was made for (PUBLIC_SITE_URL), not this test's port.
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(siteUrl() + first.href);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(siteUrl() + first.href);
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
    await page.getByRole('heading', { name: 'Ready to Cartoonize Your Photos?' }).waitFor();
    expect(await page.getByRole('link', { name: `Try ${brand} Now!` }).getAttribute('href')).toBe('/');
    expect(await page.locator('main hr').count()).toBeGreaterThan(0);

    // Unknown slug: replaced by /404, so Back skips it.
    await page.goto(`${site.runtime.url}/blog`);
    await page.getByRole('heading', { level: 1, name: `The ${brand} Blog` }).waitFor();
    await page.evaluate(() => {
      window.history.pushState(null, '', '/blog/no-such-article');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/404');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: `The ${brand} Blog` }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/blog');

    // A direct load of an unknown slug ends on /404 too.
    await page.goto(`${site.runtime.url}/blog/no-such-article`);
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/404');
    await page.context().close();
  });

  test('not-found: HTTP 404 from the server for unknown paths, 200 for the routes, the page and Return to Home', async () => {
    for (const p of ['/no-such-page', '/image', '/blog/a/b', '/pricing/extra', '/blog/x', '/guides/x']) {
      expect([p, (await fetch(site.runtime.url + p)).status]).toEqual([p, 404]);
    }
    for (const p of [
      '/',
      '/terms',
      '/privacy',
      '/refund',
      '/pricing',
      '/blog',
      '/guides',
      '/blog/pixar-filter-ai-generator',
      '/status/abc',
    ]) {
      expect([p, (await fetch(site.runtime.url + p)).status]).toEqual([p, 200]);
    }
    // A share link that opens nothing is a 404 for crawlers, and still the app for people (it says so in its words).
    for (const p of ['/image/abc', '/image/abc/anime']) {
      const res = await fetch(site.runtime.url + p);
      expect([p, res.status]).toEqual([p, 404]);
      expect(await res.text()).toMatch(/<script type="module"[^>]+src="\/assets\//);
    }
    const page = await open('/no-such-page');
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
    const home = page.getByRole('link', { name: 'Return to Home' });
    expect(await home.getAttribute('href')).toBe('/');
    await home.click();
    await page.getByText(SPEC_TAGLINE, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  test('status: no id, and an unknown id (404 from GET /api/generation) shown as the spec error', async () => {
    const page = await open('/status/');
    await page.getByRole('heading', { level: 1, name: 'Your images' }).waitFor();
    const missing = page.getByRole('alert');
    await missing.waitFor();
    expect(await missing.innerText()).toContain('Generation ID is missing.');

    const id = '00000000-0000-4000-8000-000000000000';
    const api = await fetch(`${site.runtime.url}/api/generation/${id}`);
    expect(api.status).toBe(404);
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/generation/') && calls.push(r.url()));
    await page.goto(`${site.runtime.url}/status/${id}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Error Failed to load generation status: HTTP error! status: 404',
    );
    expect(calls).toEqual([`${site.runtime.url}/api/generation/${id}`]);
    // A failed status call shows no 'Generate Again' (nothing loaded) and no spinner.
    expect(await page.getByText('Loading status...').count()).toBe(0);
    await page.context().close();
  });

  test('image and gallery: unknown hash or style shows the spec messages and Try Your Own', async () => {
    const hash = 'a'.repeat(64);
    const page = await open(`/image/${hash}/anime`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Image or style not found.');
    expect(await page.getByRole('link', { name: 'Try Your Own' }).getAttribute('href')).toBe('/');

    await page.goto(`${site.runtime.url}/image/${hash}`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('No images found for this hash.');
    expect(await page.getByRole('link', { name: 'Try Your Own' }).first().getAttribute('href')).toBe('/');
    await page.context().close();
  });
});
