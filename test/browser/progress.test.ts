import type { Browser, Page } from 'playwright-core';
import { itemProgress } from '../../domain/orders';
import type { Generation } from '../../frontend/src/lib/api';
import { readyText } from '../../frontend/src/lib/generation-state';
import { launchChromium } from '../support/browser';
import { checkout, moderate, pay } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';
import { DESKTOP, newContext, PHONE, type Scheme, SHOTS_WANTED, screenshot, until } from './site-helpers';

/**
 * The status page's progress per image (issue 24): an order whose items finish one by one (the engine endpoint at
 * MaxConcurrency 1, so its renders take turns and the others wait, queued) shows "n of m images ready" and a bar
 * that moves with each finished item, says when the order is queued, and ends with the receipt.
 */
describe('status page progress', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    [runtime, browser] = await Promise.all([startTestRuntime({ engineMaxConcurrency: 1 }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.idle();
    await runtime?.close();
  });

  /** What the page shows now: the ready line, the bar's value, the queued line and the status. */
  const shown = (page: Page) =>
    page.evaluate(() => ({
      ready: document.querySelector('[data-testid=ready-count]')?.textContent ?? null,
      bar: document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') ?? null,
      queued: !!document.querySelector('[data-testid=queued]'),
      complete: document.body.innerText.includes('Generation complete! Here are your images:'),
    }));

  test('"n of m images ready" and the bar move with each finished item; queued is said; the receipt follows', async () => {
    const client = api(runtime.url);
    const hashes = [await uploadPhoto(client, photo('coffee.png')), await uploadPhoto(client, photo('chelsea.png'))];
    await moderate(client, hashes);
    // Engine styles only: each item is one engine call, and the endpoint serves one at a time.
    const styles = ['sketch', 'comic', 'watercolor'];
    const order = await checkout(client, 'progress@example.com', hashes, styles);

    const page = await (await newContext(browser, { viewport: DESKTOP })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    // Every status answer the page gets, in order: what it shows must be that answer's items.
    const answers: Generation[] = [];
    page.on('response', async (res) => {
      if (res.url().includes(`/api/generation/${order.order_id}`) && res.status() === 200) {
        answers.push((await res.json()) as Generation);
      }
    });
    await pay(runtime, order.session_id);
    await page.goto(`${runtime.url}/status/${order.order_id}`);

    // Watch the page until the order is complete; keep each distinct view.
    const views: Awaited<ReturnType<typeof shown>>[] = [];
    await until(
      async () => {
        const v = await shown(page);
        const last = views.at(-1);
        if (!last || last.ready !== v.ready || last.bar !== v.bar || last.queued !== v.queued) views.push(v);
        return v;
      },
      (v) => v.complete,
      240_000,
    );

    const total = hashes.length * styles.length;
    const inProgress = views.filter((v) => v.ready !== null);
    // Each view is what one answer's items say (one definition: domain/orders.ts itemProgress).
    const expected = answers.filter((a) => a.status === 'pending' || a.status === 'processing').map((a) => a.items);
    for (const v of inProgress) {
      expect(
        expected.some((items) => {
          const p = itemProgress(items);
          return v.ready === readyText(p) && v.bar === String(p.percent);
        }),
      ).toBe(true);
    }
    // The bar only moves forward, and it moved before the end: at least one view between none and all.
    const readyCounts = inProgress.map((v) => Number(v.ready!.split(' ')[0]));
    expect(readyCounts).toEqual([...readyCounts].sort((a, b) => a - b));
    expect(readyCounts.some((n) => n > 0 && n < total)).toBe(true);
    const bars = inProgress.map((v) => Number(v.bar));
    expect(bars).toEqual([...bars].sort((a, b) => a - b));
    expect(inProgress.every((v) => v.ready!.endsWith(`of ${total} images ready`))).toBe(true);
    // Items waited for the one engine slot: some answer said so, and the page said it then.
    expect(answers.some((a) => a.queued > 0)).toBe(true);
    expect(inProgress.some((v) => v.queued)).toBe(true);

    // Completed: the receipt from the order record, as the e-mail has it.
    const receipt = page.getByRole('heading', { name: 'Your receipt' });
    await receipt.waitFor();
    const lines = (await page.locator('dl[aria-labelledby=receipt-heading]').innerText()).replace(/\s+/g, ' ');
    expect(lines).toBe(
      '6 images (2 photos × 3 styles) at $0.65 Pencil Sketch, Comic Book, Watercolor $3.90 Discount -$1.17 Paid $2.73',
    );
    expect(errors).toEqual([]);
    await page.context().close();

    // Screenshots of each state the page went through (the answers it got, replayed), light and dark, phone and desktop.
    const states: Array<[string, Generation | undefined]> = [
      ['queued', answers.find((a) => a.queued > 0 && a.status !== 'completed')],
      [
        'in-progress',
        answers.find((a) => {
          const p = itemProgress(a.items);
          return a.status === 'processing' && p.ready > 0 && p.ready < total;
        }),
      ],
      ['completed', answers.find((a) => a.status === 'completed')],
    ];
    for (const [name, answer] of states) {
      expect(answer).toBeDefined();
      // The replays below only make the screenshots.
      if (!SHOTS_WANTED) continue;
      for (const scheme of ['light', 'dark'] as Scheme[]) {
        for (const [size, viewport] of [
          ['phone', PHONE],
          ['desktop', DESKTOP],
        ] as const) {
          const shot = await (await newContext(browser, { scheme, viewport })).newPage();
          await shot.route(`**/api/generation/${order.order_id}`, (route) => route.fulfill({ json: answer }));
          await shot.goto(`${runtime.url}/status/${order.order_id}`);
          await shot.getByRole('heading', { name: 'Your receipt' }).waitFor();
          if (name === 'completed') {
            // The cards load their images lazily; a full-page shot shows them all, so ask for them now.
            await shot.evaluate(() => {
              for (const img of document.querySelectorAll('main img')) img.setAttribute('loading', 'eager');
            });
            await shot.waitForFunction(() =>
              [...document.querySelectorAll('main img')].every((i) => (i as HTMLImageElement).complete),
            );
          }
          await screenshot(shot, `status-${name}-${scheme}-${size}`);
          await shot.context().close();
        }
      }
    }
  });

  test('the pricing page states the paid size', async () => {
    // Once for the check; in every look when screenshots are kept.
    for (const scheme of SHOTS_WANTED ? (['light', 'dark'] as Scheme[]) : ['light' as Scheme]) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ].slice(0, SHOTS_WANTED ? 2 : 1) as [string, typeof DESKTOP][]) {
        const page = await (await newContext(browser, { scheme, viewport })).newPage();
        await page.goto(`${runtime.url}/pricing`);
        await page.getByRole('heading', { name: '2048 px images' }).waitFor();
        expect(await page.getByText('Every paid image is 2048 px on its long side, in every style').count()).toBe(1);
        await screenshot(page, `pricing-${scheme}-${size}`);
        await page.context().close();
      }
    }
  });
});
