import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PHOTOS } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import {
  axeViolations,
  chooseTile,
  DESKTOP,
  newContext,
  PHONE,
  type Scheme,
  screenshot,
  switchScheme,
  toModeratedStyles,
} from './site-helpers';

/**
 * axe-core finds no violations on any kind of page a visitor reaches without an order, in light and dark, on a phone
 * and a desktop. Screenshots of each go to /tmp/shots (SHOTS_DIR) for a look.
 */
describe('accessibility (axe) of every kind of page, light and dark', () => {
  const site = useRuntimeAndBrowser();

  /**
   * Path, and what shows the page is ready: one page of each template (the legal pages share one, as do the status
   * page's errors), so a template's fault shows once.
   */
  const PAGES: Array<[string, string, (p: Page) => Promise<unknown>]> = [
    ['landing', '/', (p) => p.getByRole('button', { name: 'Get Started' }).waitFor()],
    ['pricing', '/pricing', (p) => p.getByRole('heading', { level: 1, name: 'Simple, per-image pricing' }).waitFor()],
    ['privacy', '/privacy', (p) => p.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor()],
    ['blog', '/blog', (p) => p.locator('main li a').first().waitFor()],
    ['guides', '/guides', (p) => p.getByRole('heading', { level: 1, name: /Guides$/ }).waitFor()],
    [
      'article',
      '/blog/pixar-filter-ai-generator',
      (p) => p.getByRole('heading', { name: 'Ready to Cartoonize Your Photos?' }).waitFor(),
    ],
    ['404', '/no-such-page', (p) => p.getByRole('heading', { name: 'Oops! Page not found' }).waitFor()],
    [
      'status-error',
      '/status/00000000-0000-4000-8000-000000000000',
      (p) => p.getByText(/Failed to load generation status/).waitFor(),
    ],
    ['image-missing', `/image/${'a'.repeat(64)}/anime`, (p) => p.getByText('Image or style not found.').waitFor()],
    ['gallery-missing', `/image/${'a'.repeat(64)}`, (p) => p.getByText('No images found for this hash.').waitFor()],
  ];

  const WIDTHS = { phone: PHONE, desktop: DESKTOP } as const;
  /** Dark changes colours, not layout: light at both widths, dark at phone width (and desktop where told). */
  const looks = (darkDesktop: boolean) =>
    [['light', 'phone'], ['light', 'desktop'], ['dark', 'phone'], ...(darkDesktop ? [['dark', 'desktop']] : [])] as [
      Scheme,
      keyof typeof WIDTHS,
    ][];

  /**
   * axe on the page as loaded, in each look (the scheme and width switched in place: colours come from CSS media
   * queries), with a full-page screenshot of each.
   */
  async function check(
    page: Page,
    name: string,
    darkDesktop = true,
    reload?: () => Promise<unknown>,
  ): Promise<string[]> {
    const found: string[] = [];
    for (const [scheme, label] of looks(darkDesktop)) {
      const switched =
        scheme !== (await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')));
      await switchScheme(page, scheme);
      // Cards drawn only near the screen (content-visibility: auto) keep the old scheme's colours off screen until
      // drawn; a page that can be loaded again is, in the new scheme.
      if (switched && reload) await reload();
      await page.setViewportSize(WIDTHS[label]);
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
      for (const v of await axeViolations(page)) found.push(`${name} ${scheme} ${label}: ${v}`);
      await screenshot(page, `${name}-${scheme}-${label}`);
    }
    return found;
  }

  test('static and error pages, light and dark', async () => {
    const context = await newContext(site.browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const violations: string[] = [];
    for (const [name, p, ready] of PAGES) {
      await switchScheme(page, 'light');
      await page.goto(site.runtime.url + p);
      await ready(page);
      // The landing's desktop header in dark once.
      violations.push(
        ...(await check(page, name, name === 'landing', async () => {
          await page.reload();
          await ready(page);
        })),
      );
    }
    await context.close();
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('wizard: upload step with photos and a message, style step with previews, light and dark', async () => {
    const context = await newContext(site.browser);
    const page = await context.newPage();
    const violations: string[] = [];
    await page.goto(site.runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    violations.push(...(await check(page, 'upload-empty')));

    await page.locator('input[type=file][multiple]').setInputFiles([
      ...['astronaut.png', 'rocket.jpg'].map((name) => ({
        name,
        mimeType: 'image/png',
        buffer: fs.readFileSync(path.join(PHOTOS, name)),
      })),
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
    ]);
    await page.getByText('2 of 50 files selected').waitFor();
    await page.getByRole('alert').waitFor();
    violations.push(...(await check(page, 'upload-files')));

    await toModeratedStyles(page);
    await chooseTile(page.locator('main button[aria-pressed]').nth(1));
    violations.push(...(await check(page, 'styles')));
    await context.close();
    expect(violations).toEqual([]);
  });
});
