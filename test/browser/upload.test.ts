import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { PHOTOS } from '../support/api-client';
import { launchChromium } from '../support/browser';
import { sharedRuntime } from '../support/shared-runtime';
import { captureFileChoosers, moderationCompleted, newContext, WORK_MS } from './site-helpers';

/** The upload step's rules (docs/product-spec.md §5) and the style step by keyboard, in Chromium against the local runtime. */
describe('upload and style steps in the browser', () => {
  const runtime = sharedRuntime();
  let browser: Browser;
  let dir: string;
  let pngs: string[];
  const errors: string[] = [];
  const MB10 = 10 * 1024 * 1024;
  const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-upload-'));
    const [br] = await Promise.all([
      launchChromium(),
      (async () => {
        const pixel = { width: 8, height: 8, channels: 3 as const };
        await sharp({ create: { ...pixel, background: '#3366ff' } })
          .gif()
          .toFile(path.join(dir, 'anim.gif'));
        // A GIF renamed .png is still a GIF: the type is read from the bytes.
        fs.copyFileSync(path.join(dir, 'anim.gif'), path.join(dir, 'disguised.png'));
        fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a photo');
        // PNG bytes at exactly 10 MB (rejected) and one byte less (accepted).
        fs.writeFileSync(
          path.join(dir, 'huge.png'),
          Buffer.concat([PNG_SIGNATURE, Buffer.alloc(MB10 - PNG_SIGNATURE.length)]),
        );
        fs.writeFileSync(
          path.join(dir, 'almost.png'),
          Buffer.concat([PNG_SIGNATURE, Buffer.alloc(MB10 - 1 - PNG_SIGNATURE.length)]),
        );
        pngs = await Promise.all(
          Array.from({ length: 52 }, async (_, i) => {
            const file = path.join(dir, `p${String(i).padStart(2, '0')}.png`);
            await sharp({ create: { ...pixel, background: { r: i * 4, g: 255 - i * 4, b: 128 } } })
              .png()
              .toFile(file);
            return file;
          }),
        );
      })(),
    ]);
    browser = br;
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  /** File choosers each page opened (captured from before its first navigation). */
  const choosersOf = new WeakMap<Page, ReturnType<typeof captureFileChoosers>>();

  async function uploadStep(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    choosersOf.set(page, captureFileChoosers(page));
    await page.goto(runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    return page;
  }

  const input = (page: Page) => page.locator('input[type=file][multiple]');
  const count = (page: Page, n: number) => page.getByText(`${n} of 50 files selected`, { exact: true }).waitFor();
  const alertText = async (page: Page) => (await page.getByRole('alert').allInnerTexts()).map((t) => t.trim());
  const zone = (page: Page) => page.getByRole('button', { name: /Drag & drop your photos here/ });

  test('type and size messages; the first invalid file decides the message and valid files are still added', async () => {
    const page = await uploadStep();
    expect(await input(page).getAttribute('accept')).toBe('image/jpeg,image/png');

    for (const name of ['anim.gif', 'notes.txt', 'disguised.png']) {
      await input(page).setInputFiles(path.join(dir, name));
      await page.getByRole('alert').waitFor();
      expect([name, await alertText(page)]).toEqual([name, ['Only JPG/PNG files are allowed']]);
      await count(page, 0);
    }

    await input(page).setInputFiles(path.join(dir, 'huge.png'));
    await page.getByRole('alert').getByText('File size must be less than 10MB', { exact: true }).waitFor();
    await count(page, 0);

    // Mixed pick: text file first, then a good photo, then an oversized one.
    await input(page).setInputFiles([
      path.join(dir, 'notes.txt'),
      path.join(PHOTOS, 'astronaut.png'),
      path.join(dir, 'huge.png'),
    ]);
    await count(page, 1);
    expect(await alertText(page)).toEqual(['Only JPG/PNG files are allowed']);
    await input(page).setInputFiles([path.join(dir, 'huge.png'), path.join(dir, 'notes.txt')]);
    await page.getByRole('alert').getByText('File size must be less than 10MB', { exact: true }).waitFor();

    // One byte under 10 MB is fine.
    await input(page).setInputFiles(path.join(dir, 'almost.png'));
    await count(page, 2);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });

  test('thumbnails with remove buttons, Clear All, the counter, and drag and drop', async () => {
    const page = await uploadStep();
    expect(await page.getByRole('button', { name: 'Clear All' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Choose Your Styles' }).isDisabled()).toBe(true);
    await input(page).setInputFiles(['astronaut.png', 'chelsea.png', 'rocket.jpg'].map((f) => path.join(PHOTOS, f)));
    await count(page, 3);
    const thumbs = page.locator('main ul img');
    expect(await thumbs.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      'astronaut.png',
      'chelsea.png',
      'rocket.jpg',
    ]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main ul img')].every((i) => (i as HTMLImageElement).naturalWidth > 0),
    );
    expect(await page.getByRole('button', { name: 'Choose Your Styles' }).isEnabled()).toBe(true);

    // The same file picked again is not added twice.
    await input(page).setInputFiles(path.join(PHOTOS, 'astronaut.png'));
    await count(page, 3);

    await page.getByRole('button', { name: 'Remove chelsea.png' }).click();
    await count(page, 2);
    expect(await thumbs.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      'astronaut.png',
      'rocket.jpg',
    ]);

    await page.getByRole('button', { name: 'Clear All' }).click();
    await count(page, 0);
    expect(await thumbs.count()).toBe(0);
    await page.getByText('Your selected photos will appear here.').waitFor();
    expect(await page.getByRole('button', { name: 'Clear All' }).count()).toBe(0);

    // Drop a photo and a text file on the zone: the photo is added, the text file reported.
    // As base64: an array of the file's bytes took 11 s to pass to the page.
    const base64 = fs.readFileSync(path.join(PHOTOS, 'coffee.png')).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], 'coffee.png', { type: 'image/png' }));
      dt.items.add(new File(['hello'], 'hello.txt', { type: 'text/plain' }));
      return dt;
    }, base64);
    await zone(page).dispatchEvent('dragenter', { dataTransfer });
    await zone(page).dispatchEvent('drop', { dataTransfer });
    await count(page, 1);
    expect(await alertText(page)).toEqual(['Only JPG/PNG files are allowed']);
    await page.context().close();
  });

  test('Maximum 50 files allowed when the count reaches 50; files beyond it are dropped silently', async () => {
    const page = await uploadStep();
    await input(page).setInputFiles(pngs.slice(0, 49));
    await count(page, 49);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await zone(page).getAttribute('aria-disabled')).toBeNull();

    // Three more: one fits, two are dropped.
    await input(page).setInputFiles(pngs.slice(49, 52));
    await count(page, 50);
    expect(await alertText(page)).toEqual(['Maximum 50 files allowed']);
    expect(await page.locator('main ul img').count()).toBe(50);
    expect(await zone(page).getAttribute('aria-disabled')).toBe('true');
    // A full zone does not open the chooser.
    await zone(page).click({ force: true });
    await zone(page).press('Enter');
    await page.getByRole('button', { name: 'Clear All' }).waitFor();
    expect(choosersOf.get(page)?.opened).toBe(0);

    await page.getByRole('button', { name: 'Remove p00.png' }).click();
    await count(page, 49);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await zone(page).getAttribute('aria-disabled')).toBeNull();
    // Below the limit the same key opens it again: the first chooser this page ever opened (so none came late
    // from the full zone).
    await zone(page).press('Enter');
    await (await choosersOf.get(page)!.next()).setFiles([]);
    expect(choosersOf.get(page)?.opened).toBe(1);
    await count(page, 49);

    // 50 at once from empty shows the message too.
    await page.getByRole('button', { name: 'Clear All' }).click();
    await count(page, 0);
    await input(page).setInputFiles(pngs.slice(0, 50));
    await count(page, 50);
    expect(await alertText(page)).toEqual(['Maximum 50 files allowed']);
    await page.context().close();
  });

  test('style step by keyboard: tiles toggle with Space and Enter (aria-pressed), Continue follows the selection', async () => {
    const page = await uploadStep();
    await input(page).setInputFiles(path.join(PHOTOS, 'astronaut.png'));
    await count(page, 1);
    const choose = page.getByRole('button', { name: 'Choose Your Styles' });
    await choose.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose Your Styles', exact: true }).waitFor({ timeout: WORK_MS });
    const styles = (
      (await (await fetch(`${runtime.url}/api/available-styles`)).json()) as { styles: { id: string; name: string }[] }
    ).styles;
    const tiles = page.locator('main button[aria-pressed]');
    await page.waitForFunction(
      (n) => document.querySelectorAll('main button[aria-pressed]').length === n,
      styles.length,
    );
    for (const [i, s] of styles.entries()) expect(await tiles.nth(i).innerText()).toContain(s.name);

    const cont = page.getByRole('button', { name: 'Continue' });
    expect(await cont.isDisabled()).toBe(true);
    // Focus is on the step; Tab: Back, then the first tile.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Back');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-pressed'))).toBe('false');
    await page.keyboard.press('Space');
    expect(await tiles.first().getAttribute('aria-pressed')).toBe('true');
    expect(await cont.isEnabled()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await tiles.nth(1).getAttribute('aria-pressed')).toBe('true');
    await page.getByText(/^2\s+styles selected/).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    expect(await tiles.nth(0).getAttribute('aria-pressed')).toBe('false');
    expect(await tiles.nth(1).getAttribute('aria-pressed')).toBe('false');
    expect(await cont.isDisabled()).toBe(true);

    // Moderation runs on entry and reports in a toast in the Notifications region.
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await moderationCompleted(page);
    expect(await toasts.getByText('1 / 1 images passed moderation.').count()).toBe(1);

    // Back keeps the selected photos.
    await page.getByRole('button', { name: 'Back', exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    await count(page, 1);
    await page.context().close();
  });
});
