import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PHOTOS, photo, sha256 } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import { chooseTile, DESKTOP, newContext, PHONE, until, WORK_MS } from './site-helpers';

/**
 * A visitor's journey that never strands them (issue 13): refused photos stay visible with a reason and can be
 * removed; the step and choices survive a refresh, Back and Cancel on the checkout page; toasts never cover a field.
 */
describe('the wizard keeps the visitor on track', () => {
  const site = useRuntimeAndBrowser();
  let dir: string;
  let broken: string;
  const errors: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-journey-'));
    // PNG by its signature (the browser accepts it), but no image behind it: the server's check refuses it.
    broken = path.join(dir, 'broken.png');
    fs.writeFileSync(
      broken,
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('not really a picture'),
      ]),
    );
  });
  afterAll(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  async function open(opts: { viewport?: { width: number; height: number }; origin?: string } = {}): Promise<Page> {
    const page = await (await newContext(site.browser, { viewport: opts.viewport ?? DESKTOP })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(opts.origin ?? site.runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    return page;
  }

  /** Every toast box that overlaps a form field's box, with the field's. */
  const covered = (page: Page) =>
    page.evaluate(() => {
      const rect = (e: Element) => e.getBoundingClientRect().toJSON() as DOMRect;
      const fields = [...document.querySelectorAll('input:not([type=hidden]):not([type=file]), textarea, select')].map(
        rect,
      );
      return [...document.querySelectorAll('[data-sonner-toast]')]
        .map(rect)
        .flatMap((t) =>
          fields
            .filter((f) => t.left < f.right && t.right > f.left && t.top < f.bottom && t.bottom > f.top)
            .map((f) => ({ toast: t, field: f })),
        );
    });

  async function toStyles(page: Page, files: string[]) {
    await page.locator('input[type=file]').first().setInputFiles(files);
    await page.getByText(`${files.length} of 50 files selected`).waitFor();
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor({ timeout: WORK_MS });
  }

  test('a refused photo stays on the style step with its reason and a remove button; the order says what is left out', async () => {
    const page = await open();
    // The local model allows every ordinary photo; a refusal for nudity is played by the API answer for one photo.
    const cat = sha256(photo('chelsea.png'));
    await page.route(`**/api/get-moderation/${cat}`, (route) =>
      route.fulfill({ json: { image_hash: cat, moderation: 'rejected', reason: 'looks like it may contain nudity' } }),
    );
    await toStyles(page, [path.join(PHOTOS, 'astronaut.png'), path.join(PHOTOS, 'chelsea.png'), broken]);

    const refused = page.getByRole('region', { name: /not included/ });
    await refused.getByText('This photo looks like it may contain nudity.').waitFor({ timeout: WORK_MS });
    await refused.getByText('This photo could not be read as a JPG or PNG photo.').waitFor();
    expect(await refused.getByRole('heading').innerText()).toBe('2 photos are not included');
    expect(await refused.locator('img').count()).toBe(2);
    await page.getByText('1 / 3 images passed moderation.').first().waitFor();

    await chooseTile(page.getByRole('button', { name: /3D/ }).first());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
    const summary = page.locator('dl');
    expect(await summary.locator('div', { hasText: 'Images uploaded' }).locator('dd').innerText()).toBe('3');
    expect(await summary.locator('div', { hasText: 'Total generations' }).locator('dd').innerText()).toBe('1');
    expect(await page.getByTestId('not-included').innerText()).toBe(
      '2 photos not included: 1 because it looks like it may contain nudity, 1 because it could not be read as a JPG or PNG photo.',
    );

    // One click removes a refused photo; the others keep their verdicts (no new scan).
    await page.getByRole('button', { name: 'Back' }).first().click();
    await page.getByRole('button', { name: 'Remove chelsea.png' }).click();
    await page.getByText('This photo looks like it may contain nudity.').waitFor({ state: 'detached' });
    expect(await refused.getByRole('heading').innerText()).toBe('1 photo is not included');
    await page.getByRole('button', { name: 'Remove broken.png' }).click();
    await refused.waitFor({ state: 'detached' });
    await page.getByText('1 / 1 images passed moderation.').first().waitFor();
    await page.close();
  });

  test('when no photo passes, the style step says so in place and leads back to upload', async () => {
    const page = await open({ viewport: PHONE });
    await toStyles(page, [broken]);
    const alert = page.getByRole('alert').filter({ hasText: 'None of your photos passed our content check' });
    await alert.waitFor({ timeout: WORK_MS });
    await alert.getByRole('button', { name: 'Back to upload' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    await page.close();
  });

  test('refresh and Back keep the step and the choices', async () => {
    const page = await open();
    await toStyles(page, [path.join(PHOTOS, 'astronaut.png')]);
    await page.getByText('1 / 1 images passed moderation.').first().waitFor({ timeout: WORK_MS });
    await chooseTile(page.getByRole('button', { name: /Anime/ }).first());
    expect(new URL(page.url()).search).toBe('?step=styles');

    await page.reload();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor();
    expect(await page.getByRole('button', { name: /Anime/ }).first().getAttribute('aria-pressed')).toBe('true');
    await page.getByText('1 / 1 images passed moderation.').first().waitFor();

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
    await page.getByLabel('Email address').fill('keep@example.com');
    await page.reload();
    await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
    expect(await page.getByLabel('Email address').inputValue()).toBe('keep@example.com');

    await page.goBack();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    // The uploaded photo is still listed (from its kept preview) and goes on without another upload.
    await page.getByText('1 of 50 files selected').waitFor();
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor();
    expect(await page.getByRole('button', { name: /Anime/ }).first().getAttribute('aria-pressed')).toBe('true');
    await page.close();
  });

  /** Keys of the picked files kept in IndexedDB (frontend/src/features/wizard/picked-files.ts), all tabs. */
  const keptFiles = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open('toonzap-picked');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('files')) return resolve([]);
            const all = db.transaction('files').objectStore('files').getAll();
            all.onsuccess = () => resolve((all.result as { key: string }[]).map((r) => r.key).sort());
            all.onerror = () => reject(all.error);
          };
        }),
    );

  test('photos picked but not uploaded survive a refresh, and are kept no longer than needed', async () => {
    const page = await open({ viewport: PHONE });
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles(['astronaut.png', 'coffee.png', 'chelsea.png'].map((f) => path.join(PHOTOS, f)));
    await page.getByText('3 of 50 files selected').waitFor();
    // A removed photo is not kept.
    await page.getByRole('button', { name: 'Remove chelsea.png' }).click();
    await page.getByText('2 of 50 files selected').waitFor();
    await until(
      () => keptFiles(page),
      (k) => k.length === 2 && k.every((key) => !key.startsWith('chelsea')),
    );

    await page.reload();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    await page.getByText('2 of 50 files selected').waitFor();
    // Both listed, in order, with their previews drawn from the kept files.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('main li img')].every((i) => i.complete && i.naturalWidth > 0),
    );
    expect(await page.locator('main li img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      'astronaut.png',
      'coffee.png',
    ]);

    // And uploadable: both reach the server and pass the check; once uploaded, the kept files are gone.
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor({ timeout: WORK_MS });
    await page.getByText('2 / 2 images passed moderation.').first().waitFor({ timeout: WORK_MS });
    // Read as the page reads them: with the browser's owner secret (a stranger gets 404).
    for (const f of ['astronaut.png', 'coffee.png']) {
      const status = await page.evaluate(
        async (h) => (await fetch(`/api/get-moderation/${h}`)).status,
        sha256(photo(f)),
      );
      expect([f, status]).toEqual([f, 200]);
    }
    await until(
      () => keptFiles(page),
      (k) => k.length === 0,
    );

    // A closed tab's picks do not outlive it: the next time the wizard opens in this browser, they are deleted.
    const other = await page.context().newPage();
    await other.goto(`${site.runtime.url}/?step=upload`);
    await other.locator('input[type=file]').first().setInputFiles(path.join(PHOTOS, 'rocket.jpg'));
    await other.getByText('1 of 50 files selected').waitFor();
    await until(
      () => keptFiles(other),
      (k) => k.length === 1,
    );
    await other.close();
    const later = await page.context().newPage();
    await later.goto(`${site.runtime.url}/?step=upload`);
    await later.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    await until(
      () => keptFiles(later),
      (k) => k.length === 0,
    );
    await page.context().close();
  });

  test('Cancel on the checkout page returns to the order step on the host the visitor used, with everything kept', async () => {
    const origin = site.runtime.url.replace('localhost', '127.0.0.1');
    const page = await open({ origin });
    await toStyles(page, [path.join(PHOTOS, 'astronaut.png')]);
    await page.getByText('1 / 1 images passed moderation.').first().waitFor({ timeout: WORK_MS });
    await chooseTile(page.getByRole('button', { name: /3D/ }).first());
    await chooseTile(page.getByRole('button', { name: /Anime/ }).first());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email address').fill('cancel@example.com');
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click({ timeout: WORK_MS });

    await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
    expect(new URL(page.url()).origin).toBe(origin);
    expect(new URL(page.url()).search).toBe('?step=order');
    expect(await page.getByLabel('Email address').inputValue()).toBe('cancel@example.com');
    const summary = page.locator('dl');
    expect(await summary.locator('div', { hasText: 'Images uploaded' }).locator('dd').innerText()).toBe('1');
    expect(await summary.locator('div', { hasText: 'Styles selected' }).locator('dd').innerText()).toBe('2');
    await page.close();
  });

  test.each([
    // The focus case needs a shorter window (a small phone, or one with its keyboard open), so the field can sit
    // below the toasts, barely showing at the screen's edge.
    ['phone', PHONE, 640],
    // A short desktop window, so the e-mail field can sit at its bottom edge where the toasts are.
    ['desktop', { width: DESKTOP.width, height: 360 }, 300],
  ])(
    'a toast never covers a form field: when it comes, when the visitor scrolls, when a field takes focus (%s)',
    async (_name, viewport, shortHeight) => {
      const page = await open({ viewport });
      await toStyles(page, [path.join(PHOTOS, 'astronaut.png')]);
      // The moderation toast appears on the style step; it must not follow the visitor onto the order step.
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByText('1 / 1 images passed moderation.')
        .waitFor({ timeout: WORK_MS });
      await chooseTile(page.getByRole('button', { name: /3D/ }).first());
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
      await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: WORK_MS });

      // A failing checkout shows a toast while the e-mail field sits at the bottom of the screen.
      await page.route('**/api/checkout', (route) =>
        route.fulfill({ status: 502, json: { detail: 'The payment provider is not reachable.' } }),
      );
      const input = page.getByLabel('Email address');
      await input.fill('toast@example.com');
      // Submitted from the field itself (Enter), so nothing scrolls it away from the bottom edge before the toast comes.
      await input.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 4));
      expect(await input.evaluate((el) => window.innerHeight - el.getBoundingClientRect().bottom)).toBeLessThan(10);
      await input.press('Enter');
      await page.locator('[data-sonner-toast]').first().waitFor();
      await page.waitForTimeout(700);
      expect(await page.locator('[data-sonner-toast]').count()).toBeGreaterThan(0);
      expect(await covered(page)).toEqual([]);

      // The visitor scrolls the field under the toast. The pointer rests on the toast, which holds it (sonner pauses its
      // timer while hovered), so only the guard can clear the field; and it must not scroll the page back.
      await page.locator('[data-sonner-toast]').first().hover();
      const scrolled = await input.evaluate((el) => {
        const toast = document.querySelector('[data-sonner-toast]')!.getBoundingClientRect();
        const before = el.getBoundingClientRect();
        window.scrollBy(0, (before.top + before.bottom) / 2 - (toast.top + toast.bottom) / 2);
        const f = el.getBoundingClientRect();
        return {
          under: toast.left < f.right && toast.right > f.left && toast.top < f.bottom && toast.bottom > f.top,
          y: window.scrollY,
        };
      });
      expect(scrolled.under).toBe(true);
      await until(
        () => covered(page),
        (c) => c.length === 0,
        5000,
      );
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled.y);

      // Focus: a new toast, then the field just below it, barely showing at the screen's edge. Focusing it (Tab, a tap)
      // makes the browser scroll it to that edge, under the toast.
      await page.mouse.move(0, 0);
      await page.setViewportSize({ width: viewport.width, height: shortHeight });
      await input.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 40));
      await input.press('Enter');
      await page.locator('[data-sonner-toast]:not([data-removed=true])').first().waitFor();
      await page.waitForTimeout(700);
      await page.locator('[data-sonner-toast]:not([data-removed=true])').first().hover();
      await input.evaluate((el) => (el as HTMLInputElement).blur());
      const toastBox = await input.evaluate((el) => {
        window.scrollBy(0, el.getBoundingClientRect().top - (window.innerHeight - 10));
        return document
          .querySelector('[data-sonner-toast]:not([data-removed=true])')!
          .getBoundingClientRect()
          .toJSON() as DOMRect;
      });
      expect(await covered(page)).toEqual([]);
      await input.focus();
      const field = (await input.evaluate((el) => el.getBoundingClientRect().toJSON())) as DOMRect;
      expect(
        toastBox.left < field.right &&
          toastBox.right > field.left &&
          toastBox.top < field.bottom &&
          toastBox.bottom > field.top,
      ).toBe(true);
      await until(
        () => covered(page),
        (c) => c.length === 0,
        5000,
      );
      await page.close();
    },
  );
});
