import { useRuntimeAndBrowser } from '../support/browser';
import { DESKTOP, newContext, PHONE } from './site-helpers';

/**
 * What works before (or without) the site's script: Get Started is a link that opens the upload step by a full load,
 * a content page loads no script until the visitor acts, then the app takes it over in place, and the served HTML
 * gives each figure the file its screen needs.
 */
describe('the site before its script runs', () => {
  const site = useRuntimeAndBrowser();

  test('Get Started opens the upload step with scripts off, and the app opens it on that load', async () => {
    const off = await newContext(site.browser, { javaScriptEnabled: false, viewport: PHONE });
    const page = await off.newPage();
    await page.goto(`${site.runtime.url}/`);
    const start = page.getByRole('button', { name: 'Get Started' });
    expect(await start.getAttribute('href')).toBe('/?step=upload');
    await start.click();
    await page.waitForURL(/\?step=upload$/);
    await off.close();

    const on = await newContext(site.browser, { viewport: PHONE });
    const app = await on.newPage();
    await app.goto(`${site.runtime.url}/?step=upload`);
    await app.getByRole('heading', { name: 'Upload Your Photos', exact: true }).waitFor();
    await on.close();
  });

  test('an article loads one small script, and the app once the visitor acts, keeping the page', async () => {
    const context = await newContext(site.browser);
    // chromium-headless-shell keeps a cursor at the page's corner and sends the page a trusted pointermove when the
    // layout under it changes (seen at ~300 ms on every load); a visitor whose cursor is elsewhere sends none. Those
    // moves are held back until the test acts as the visitor.
    await context.addInitScript(() => {
      const hold = (e: Event) => {
        if (!('__visitorActs' in window)) e.stopImmediatePropagation();
      };
      for (const type of ['pointermove', 'mousemove']) window.addEventListener(type, hold, { capture: true });
    });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${site.runtime.url}/blog/pixar-filter-ai-generator`, { waitUntil: 'networkidle' });
    expect(scripts).toHaveLength(1);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.evaluate((h) => h.setAttribute('data-kept', 'yes'));

    await page.evaluate(() => Object.assign(window, { __visitorActs: true }));
    await page.mouse.move(10, 10);
    // The app's code arriving is not the app in place: a click before React hydrates the link is a full load, as it
    // should be. React marks each element it has taken over with its props; wait for the link's.
    const link = page.getByRole('link', { name: 'All articles' });
    await link.evaluate(
      (a) =>
        new Promise<void>((done) => {
          const check = () =>
            Object.keys(a).some((k) => k.startsWith('__reactProps$')) ? done() : requestAnimationFrame(check);
          check();
        }),
    );
    // Hydrated, not redrawn: the element the server sent is still the one on screen.
    expect(await page.locator('h1[data-kept="yes"]').count()).toBe(1);
    // The router now moves within the page: this window's own mark survives the move.
    await page.evaluate(() => Object.assign(window, { __samePage: true }));
    await link.click();
    await page.getByRole('heading', { level: 1, name: /Blog$/ }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('figures: each screen loads the smallest copy that covers the image at its density (Lighthouse mobile too)', async () => {
    // For each figure image: its width on screen in device px, the copy shown, and the smallest copy covering it.
    const picks = async (viewport: { width: number; height: number }, deviceScaleFactor: number, path: string) => {
      const context = await newContext(site.browser, { viewport, deviceScaleFactor, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${site.runtime.url}${path}`);
      const images = page.locator('img[srcset]');
      await images.first().scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('img[srcset]')].every((i) => (i as HTMLImageElement).complete),
      );
      const seen = await images.evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((i) => {
          const copies = i.srcset
            .split(', ')
            .map((c) => c.split(' '))
            .map(([url = '', w = '']) => ({ url: new URL(url, i.baseURI).href, width: Number.parseInt(w, 10) }))
            .sort((a, b) => a.width - b.width);
          const needs = i.getBoundingClientRect().width * window.devicePixelRatio;
          const right = copies.find((c) => c.width >= needs) ?? copies[copies.length - 1];
          return { needs: Math.round(needs), shown: i.currentSrc === right?.url ? 'right' : i.currentSrc };
        }),
      );
      await context.close();
      return seen;
    };
    const screens: [{ width: number; height: number }, number][] = [
      [{ width: 412, height: 823 }, 1.75], // Lighthouse's phone
      [PHONE, 3],
      [{ width: 360, height: 780 }, 2],
      [DESKTOP, 1],
      [DESKTOP, 2],
    ];
    for (const path of ['/', '/blog/pixar-filter-ai-generator']) {
      for (const [viewport, dpr] of screens) {
        const seen = await picks(viewport, dpr, path);
        expect(seen).toHaveLength(2);
        for (const s of seen)
          expect([path, viewport.width, dpr, s.needs, s.shown]).toEqual([path, viewport.width, dpr, s.needs, 'right']);
      }
    }
  });
});
