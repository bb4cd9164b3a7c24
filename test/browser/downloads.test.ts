import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSZip from 'jszip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { api, photo, sha256 } from '../support/api-client';
import { launchChromium } from '../support/browser';
import { isFinal, pay, waitForGeneration } from '../support/orders';
import { sharedRuntime } from '../support/shared-runtime';
import {
  axeViolations,
  chooseTile,
  DESKTOP,
  newContext,
  PHONE,
  screenshot,
  switchScheme,
  toModeratedStyles,
  until,
  WORK_MS,
} from './site-helpers';

/**
 * A paid order in the browser (docs/product-spec.md §2, §7): order step → checkout on the local Stripe → simulated payment →
 * status page → zip downloads, share (native and clipboard fallback), social links, the image and gallery pages.
 */
describe('paid order: status page, downloads and sharing in the browser', () => {
  const runtime = sharedRuntime();
  let browser: Browser;
  let brand: string;
  let orderId: string;
  /** The photo's share id in the order: share links name it, never the photo's hash. */
  let share: string;
  // Its own copy of the astronaut (re-encoded: the same picture in other bytes, so another hash): the runtime is shared
  // with other suites, whose visitors hold the original, and this suite's deletion must find the photo held by no one else.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-downloads-')), 'astronaut.png');
  let hash: string;
  let styles: { id: string; name: string }[];
  const chosen: { id: string; name: string }[] = [];

  beforeAll(async () => {
    const bytes = await sharp(photo('astronaut.png')).png({ compressionLevel: 1 }).toBuffer();
    fs.writeFileSync(file, bytes);
    hash = sha256(bytes);
    browser = await launchChromium();
    brand = ((await (await fetch(`${runtime.url}/api/config`)).json()) as { brand: string }).brand;
    styles = (
      (await (await fetch(`${runtime.url}/api/available-styles`)).json()) as { styles: { id: string; name: string }[] }
    ).styles;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const styleFile = (s: { name: string }) => `${s.name.replace(/\s/g, '_')}_${hash.slice(0, 8)}.png`;

  async function statusPage(context: BrowserContext): Promise<Page> {
    if (!orderId) throw new Error('No completed order: the first test failed');
    const page = await context.newPage();
    await page.goto(`${runtime.url}/status/${orderId}`);
    await page.getByText('Generation complete! Here are your images:').waitFor({ timeout: WORK_MS });
    return page;
  }

  test('order step → local checkout → pay → the status page completes', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.locator('input[type=file][multiple]').setInputFiles(file);
    await toModeratedStyles(page);
    // Two styles whose names have a space, so file names show the underscores.
    for (const s of styles.filter((x) => /\s/.test(x.name)).slice(0, 2)) {
      chosen.push(s);
      await chooseTile(page.getByRole('button', { name: new RegExp(`^${s.name} style preview`) }));
    }
    expect(chosen).toHaveLength(2);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { level: 1, name: 'Almost Done! Confirm Your Order' }).waitFor();
    expect(await page.getByText('LIMITED TIME OFFER: 30% OFF!').isVisible()).toBe(true);
    const summary = (await page.locator('dl').innerText()).replace(/\s+/g, ' ');
    expect(summary).toBe(
      'Images uploaded 1 Styles selected 2 Total generations 2 Price per generation $0.70 Original price $1.40 Discount (30%) -$0.42 Total $0.98',
    );
    expect(await axeViolations(page)).toEqual([]);
    const submit = page.getByRole('button', { name: 'Continue to Checkout' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Email address').fill('buyer@example.com');
    // The page leaves for the checkout at once: read the call as it passes.
    let request: unknown;
    let session: { session_id: string; order_id: string } | undefined;
    await page.route('**/api/checkout', async (route) => {
      request = route.request().postDataJSON();
      const response = await route.fetch();
      session = (await response.json()) as typeof session;
      await route.fulfill({ response });
    });
    await submit.click();
    await until(
      () => session,
      (v) => v !== undefined,
    );
    expect(request).toEqual({ email: 'buyer@example.com', hashes: [hash], styles: chosen.map((s) => s.id) });
    if (!session) throw new Error('no checkout session');
    const { order_id: id, session_id: sessionId } = session;
    await page.waitForURL((u) => u.toString().includes(sessionId));

    await pay(runtime, sessionId);
    const generation = await waitForGeneration(api(runtime.url), id, isFinal, 90_000);
    if (generation.status === 'failed') {
      // The page reports it as the spec says; the rest of this file needs a completed order.
      await page.goto(`${runtime.url}/status/${id}`);
      await page.getByRole('alert').getByText('Generation Failed').waitFor();
      expect(await page.getByRole('alert').innerText()).toContain(
        generation.error ?? 'An unexpected error occurred during generation.',
      );
    }
    expect([generation.status, generation.error]).toEqual(['completed', null]);
    orderId = id;
    share = generation.images[0].shareId;
    expect(share).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const status = await statusPage(context);
    expect(await status.getByRole('link', { name: 'Generate Again' }).getAttribute('href')).toBe('/');
    expect(await status.locator('main img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual(
      chosen.map((s) => `Your photo in the ${s.name} style`),
    );
    expect(await axeViolations(status)).toEqual([]);
    await screenshot(status, 'status-completed-light-desktop');
    await context.close();
  });

  test('Download All as Zip and the group zip: brand-prefixed names, one PNG per style named style_hash8.png', async () => {
    const context = await newContext(browser, { acceptDownloads: true });
    const page = await statusPage(context);
    const readZip = async (trigger: () => Promise<void>) => {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: WORK_MS }), trigger()]);
      const zip = await JSZip.loadAsync(fs.readFileSync(await download.path()));
      const files = Object.values(zip.files).filter((f) => !f.dir);
      const pngs = await Promise.all(
        files.map(async (f) => (await f.async('nodebuffer')).subarray(0, 8).toString('hex')),
      );
      return { name: download.suggestedFilename(), entries: files.map((f) => f.name).sort(), pngs };
    };
    const expected = chosen.map(styleFile).sort();

    const all = await readZip(() => page.getByRole('button', { name: 'Download All as Zip' }).click());
    expect(all.name).toBe(`${brand}_${orderId}.zip`);
    expect(all.entries).toEqual(expected);
    expect(new Set(all.pngs)).toEqual(new Set(['89504e470d0a1a0a']));

    const group = await readZip(() =>
      page.getByRole('button', { name: 'Download all: all styles of photo 1' }).click(),
    );
    expect(group.name).toBe(`${brand}_${hash.slice(0, 8)}.zip`);
    expect(group.entries).toEqual(expected);

    // The status screen's single-image download is always .jpg.
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download: ${chosen[0].name} style` }).click(),
    ]);
    expect(single.suggestedFilename()).toBe(`${chosen[0].name.replace(/\s/g, '_')}_${hash.slice(0, 8)}.jpg`);
    await context.close();
  });

  test('share without navigator.share: text and link copied to the clipboard, with the spec alert', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.url });
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true }),
    );
    const page = await statusPage(context);
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    await page.getByRole('button', { name: 'Share all styles: all styles of photo 1' }).click();
    await until(
      () => dialogs.length,
      (n) => n >= 1,
    );
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toBe('Gallery share link copied to clipboard!');
    expect(await clipboard()).toBe(
      `Here's my photo in a bunch of cartoon styles from ${brand}! Which is your favorite? ${runtime.url}/image/${share}`,
    );

    await page.getByRole('button', { name: `Share: ${chosen[0].name} style` }).click();
    await until(
      () => dialogs.length,
      (n) => n >= 2,
    );
    expect(dialogs).toHaveLength(2);
    expect(dialogs[1]).toBe('Share link copied to clipboard!');
    expect(await clipboard()).toBe(
      `Here's my photo in the ${chosen[0].name} style ... ${runtime.url}/image/${share}/${chosen[0].id}`,
    );
    await context.close();
  });

  test('share with navigator.share: called with the spec text and URL, no alert; Twitter and Facebook hrefs', async () => {
    const context = await newContext(browser);
    await context.addInitScript(() => {
      const w = window as unknown as { __shares: unknown[] };
      w.__shares = [];
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: unknown) => {
          w.__shares.push(data);
          return Promise.resolve();
        },
      });
    });
    const page = await statusPage(context);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const shares = () => page.evaluate(() => (window as unknown as { __shares: unknown[] }).__shares);
    await page.getByRole('button', { name: 'Share all styles: all styles of photo 1' }).click();
    await page.getByRole('button', { name: `Share: ${chosen[1].name} style` }).click();
    await until(shares, (v) => v.length >= 2);
    expect(await shares()).toEqual([
      {
        text: `Here's my photo in a bunch of cartoon styles from ${brand}! Which is your favorite?`,
        url: `${runtime.url}/image/${share}`,
      },
      {
        text: `Here's my photo in the ${chosen[1].name} style ...`,
        url: `${runtime.url}/image/${share}/${chosen[1].id}`,
      },
    ]);
    expect(dialogs).toEqual([]);

    const galleryUrl = `${runtime.url}/image/${share}`;
    const galleryText = `Here's my photo in a bunch of cartoon styles from ${brand}! Which is your favorite?`;
    expect(await page.getByRole('link', { name: 'Share all styles of photo 1 on Twitter' }).getAttribute('href')).toBe(
      `https://twitter.com/intent/tweet?text=${encodeURIComponent(galleryText)}&url=${encodeURIComponent(galleryUrl)}`,
    );
    expect(await page.getByRole('link', { name: 'Share all styles of photo 1 on Facebook' }).getAttribute('href')).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(galleryUrl)}`,
    );
    const styleUrl = `${runtime.url}/image/${share}/${chosen[0].id}`;
    expect(
      await page.getByRole('link', { name: `Share ${chosen[0].name} style on Twitter` }).getAttribute('href'),
    ).toBe(
      `https://twitter.com/intent/tweet?text=${encodeURIComponent(`Here's my photo in the ${chosen[0].name} style ...`)}&url=${encodeURIComponent(styleUrl)}`,
    );
    await context.close();
  });

  test('share pages: the image and gallery at 390 and 1280 px, light and dark, axe clean, with their own card', async () => {
    if (!orderId) throw new Error('No completed order: the first test failed');
    const context = await newContext(browser, { acceptDownloads: true });
    const page = await context.newPage();
    // Colours come from CSS media queries and layout from the width: one load of each page, looked at four ways.
    const inEachLook = async (name: string) => {
      for (const scheme of ['light', 'dark'] as const) {
        await switchScheme(page, scheme);
        for (const [size, viewport] of [
          ['phone', PHONE],
          ['desktop', DESKTOP],
        ] as const) {
          await page.setViewportSize(viewport);
          expect([name, scheme, size, await axeViolations(page)]).toEqual([name, scheme, size, []]);
          await screenshot(page, `${name}-${scheme}-${size}`);
        }
      }
    };

    await page.goto(`${runtime.url}/image/${share}/${chosen[0].id}`);
    await page.getByRole('heading', { level: 1, name: chosen[0].name }).waitFor();
    await page.waitForFunction(() => (document.querySelector('main img') as HTMLImageElement | null)?.naturalWidth);
    // The page the browser runs is the one crawlers read: its own card, title and URL.
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(
      `${runtime.url}/api/share-card/${share}/${chosen[0].id}`,
    );
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(
      `${runtime.url}/image/${share}/${chosen[0].id}`,
    );
    expect(await page.getByRole('link', { name: 'Try Your Own' }).first().getAttribute('href')).toBe('/');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download: ${chosen[0].name} style` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(styleFile(chosen[0]));
    await inEachLook('image');

    await page.goto(`${runtime.url}/image/${share}`);
    await page.getByRole('heading', { level: 1, name: 'One photo, many styles' }).waitFor();
    await page.locator('main li h2').first().waitFor();
    expect(await page.locator('main li h2').allInnerTexts()).toEqual(chosen.map((s) => s.name));
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(
      `${runtime.url}/api/share-card/${share}/${chosen[0].id}`,
    );
    await inEachLook('gallery');
    await context.close();
  });

  test('"Delete my photos and images": what was deleted; later the status link says when, beneath the spec error; the gallery is gone', async () => {
    if (!orderId) throw new Error('No completed order: the first test failed');
    const context = await newContext(browser);
    const page = await statusPage(context);
    await page.getByRole('button', { name: 'Delete my photos and images' }).click();
    await page.getByRole('button', { name: 'Yes, delete them' }).click();
    const report = page.getByRole('status').filter({ hasText: 'Your photos and images are deleted' });
    await report.waitFor();
    expect(await report.innerText()).toContain('1 photo and');
    await context.close();

    const gone = (await api(runtime.url).get(`/api/generation/${orderId}`)).body as {
      detail: string;
      erased_at: string;
    };
    // One load, looked at four ways: colours come from CSS media queries and layout from the width.
    const later = await (await newContext(browser)).newPage();
    await later.goto(`${runtime.url}/status/${orderId}`);
    const error = later.getByRole('alert');
    await error.waitFor();
    // The spec's line, as for any failed status call; then what happened and when, in the visitor's own time.
    expect((await error.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Error Failed to load generation status: HTTP error! status: 410',
    );
    const notice = later.getByRole('status').filter({ hasText: 'Your photos and images are deleted' });
    expect(await notice.innerText()).toContain(gone.detail);
    const when = notice.locator('time');
    expect(await when.getAttribute('datetime')).toBe(gone.erased_at);
    expect(await when.innerText()).toBe(
      await later.evaluate(
        (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' }),
        gone.erased_at,
      ),
    );
    expect(await later.getByRole('link', { name: 'Generate Again' }).getAttribute('href')).toBe('/');
    expect(await later.getByRole('button', { name: 'Delete my photos and images' }).count()).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await switchScheme(later, scheme);
      for (const [size, viewport] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        await later.setViewportSize(viewport);
        expect([scheme, size, await axeViolations(later)]).toEqual([scheme, size, []]);
        await screenshot(later, `status-deleted-${scheme}-${size}`);
      }
    }
    await later.context().close();

    const gallery = await (await newContext(browser)).newPage();
    await gallery.goto(`${runtime.url}/image/${share}`);
    await gallery.getByRole('alert').getByText('No images found for this hash.').waitFor();
    await gallery.context().close();
  });
});
