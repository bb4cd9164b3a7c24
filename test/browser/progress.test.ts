import type { Page } from 'playwright-core';
import { receiptLines } from '../../domain/order-receipt';
import { itemProgress } from '../../domain/orders';
import { orderSummary } from '../../domain/pricing';
import { getStyle } from '../../domain/styles';
import type { Generation } from '../../frontend/src/lib/api';
import { queuedText, readyText } from '../../frontend/src/lib/generation-state';
import { useRuntimeAndBrowser } from '../support/browser';
import { DESKTOP, newContext, PHONE, type Scheme, SHOTS_WANTED, screenshot } from './site-helpers';

/**
 * The status page's progress per image (issue 24): as the order's answers come, the page shows "n of m images ready"
 * and a bar that moves with each finished item, says when items are queued, and ends with the receipt. The answers
 * are played to the page in order: what the server says of a queued order (items waiting for capacity, `queued`) is
 * the handlers' (test/lambdas/routes/get-generation.test.ts, test/lambdas/tasks/generate-item.test.ts).
 */
describe('status page progress', () => {
  const site = useRuntimeAndBrowser();
  const ORDER = '11111111-2222-4333-8444-555555555555';
  const hashes = ['a'.repeat(64), 'b'.repeat(64)];
  const styles = ['sketch', 'comic', 'watercolor'];
  const pairs = hashes.flatMap((imageHash) => styles.map((styleId) => ({ imageHash, styleId })));
  const summary = orderSummary(hashes.length, styles.length);
  const receipt = receiptLines({
    photos: hashes.length,
    styles,
    generations: summary.totalGenerations,
    pricePerImage: summary.pricePerGeneration,
    originalPrice: summary.originalPrice,
    discount: summary.discount,
    total: summary.total,
  });

  /** The answer while `done` items are delivered and `queued` wait for capacity; the rest are pending. */
  const answer = (done: number, queued: number): Generation => {
    const items = pairs.map((p, i) => ({
      ...p,
      state: i < done ? ('done' as const) : i < done + queued ? ('queued' as const) : ('pending' as const),
    }));
    const complete = done === pairs.length;
    return {
      status: complete ? 'completed' : done > 0 ? 'processing' : 'pending',
      progress: itemProgress(items).percent,
      error: null,
      images: pairs.slice(0, done).map((p) => ({
        ...p,
        // The site's own style samples stand in for the delivered images.
        url: `/thumbnails/${p.styleId}.png`,
        styleName: getStyle(p.styleId)?.name ?? p.styleId,
        shareId: `share-${p.imageHash.slice(0, 16)}`,
      })),
      items,
      queued,
      receipt: complete ? receipt : null,
    };
  };
  /** What the order said, in turn: all pending, then items queued behind the one slot, then moving, then done. */
  const ANSWERS = [answer(0, 0), answer(1, 3), answer(4, 0), answer(6, 0)];

  /** What the page shows now: the ready line, the bar's value, the queued line and whether the order is complete. */
  const shown = (page: Page) =>
    page.evaluate(() => ({
      ready: document.querySelector('[data-testid=ready-count]')?.textContent ?? null,
      bar: document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') ?? null,
      queued: document.querySelector('[data-testid=queued]')?.textContent ?? null,
      complete: document.body.innerText.includes('Generation complete! Here are your images:'),
    }));

  /** The status page, its reads answered with `answers[step()]`: the test moves the order on when it is ready. */
  async function statusPage(
    answers: Generation[],
    step: () => number,
    opts: { scheme?: Scheme; viewport?: typeof DESKTOP } = {},
  ): Promise<Page> {
    const page = await (await newContext(site.browser, { viewport: DESKTOP, ...opts })).newPage();
    await page.route(`**/api/generation/${ORDER}`, (route) => route.fulfill({ json: answers[step()] }));
    await page.goto(`${site.runtime.url}/status/${ORDER}`);
    return page;
  }

  test('"n of m images ready" and the bar move with each answer; queued is said while items wait; the receipt follows', async () => {
    let step = 0;
    const page = await statusPage(ANSWERS, () => step);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    for (const [i, a] of ANSWERS.entries()) {
      step = i;
      const p = itemProgress(a.items);
      const expected =
        a.status === 'completed'
          ? { ready: null, bar: null, queued: null, complete: true }
          : { ready: readyText(p), bar: String(p.percent), queued: queuedText(a), complete: false };
      // The page reads the order every GENERATION_POLL_MS and shows each answer as it comes.
      await page.waitForFunction(
        ({ ready, complete }) =>
          complete
            ? document.body.innerText.includes('Generation complete! Here are your images:')
            : document.querySelector('[data-testid=ready-count]')?.textContent === ready,
        expected,
      );
      expect([i, await shown(page)]).toEqual([i, expected]);
    }
    expect(ANSWERS.map((a) => (a.status === 'completed' ? null : readyText(itemProgress(a.items))))).toEqual([
      '0 of 6 images ready',
      '1 of 6 images ready',
      '4 of 6 images ready',
      null,
    ]);

    // Completed: the receipt from the order record, as the e-mail has it, and the delivered images.
    await page.getByRole('heading', { name: 'Your receipt' }).waitFor();
    const lines = (await page.locator('dl[aria-labelledby=receipt-heading]').innerText()).replace(/\s+/g, ' ');
    expect(lines).toBe(
      '6 images (2 photos × 3 styles) at $0.65 Pencil Sketch, Comic Book, Watercolor $3.90 Discount -$1.17 Paid $2.73',
    );
    expect(await page.locator('main img').count()).toBe(6);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  // The states the page goes through, light and dark, phone and desktop, for a person to look at.
  (SHOTS_WANTED ? test : test.skip)('screenshots of each state', async () => {
    const states: Array<[string, Generation]> = [
      ['queued', ANSWERS[1]],
      ['in-progress', ANSWERS[2]],
      ['completed', ANSWERS[3]],
    ];
    for (const [name, a] of states) {
      for (const scheme of ['light', 'dark'] as Scheme[]) {
        for (const [size, viewport] of [
          ['phone', PHONE],
          ['desktop', DESKTOP],
        ] as const) {
          const page = await statusPage([a], () => 0, { scheme, viewport });
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          if (name === 'completed') {
            await page.getByRole('heading', { name: 'Your receipt' }).waitFor();
            // The cards load their images lazily; a full-page shot shows them all, so ask for them now.
            await page.evaluate(() => {
              for (const img of document.querySelectorAll('main img')) img.setAttribute('loading', 'eager');
            });
            await page.waitForFunction(() =>
              [...document.querySelectorAll('main img')].every((i) => (i as HTMLImageElement).complete),
            );
          } else await page.getByTestId('ready-count').waitFor();
          await screenshot(page, `status-${name}-${scheme}-${size}`);
          await page.context().close();
        }
      }
    }
  });

  test('the pricing page states the paid size', async () => {
    const page = await (await newContext(site.browser)).newPage();
    await page.goto(`${site.runtime.url}/pricing`);
    await page.getByRole('heading', { name: '2048 px images' }).waitFor();
    expect(await page.getByText('Every paid image is 2048 px on its long side, in every style').count()).toBe(1);
    await page.context().close();
  });
});
