import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, FileChooser, Locator, Page } from 'playwright-core';

/** Shared pieces of the site's browser tests (test/browser/*.test.ts). */

export const SPEC_TAGLINE =
  'Transform your photos into cartoon-style masterpieces with AI. One click to create unique, shareable art in seconds.';

export type Scheme = 'light' | 'dark';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';

/** A fresh context: its own storage, the given colour scheme, no animations (stable contrast checks). */
/**
 * The outer limit of a wait on the product's work (moderation, previews, an order) or on any page action: a wait ends
 * when its event comes, and on a loaded machine that can take far longer than Playwright's 30 s default.
 */
export const WORK_MS = 180_000;

export async function newContext(
  browser: Browser,
  opts: { scheme?: Scheme; viewport?: { width: number; height: number } } & BrowserContextOptions = {},
): Promise<BrowserContext> {
  const { scheme = 'light', viewport = DESKTOP, ...rest } = opts;
  const context = await browser.newContext({ colorScheme: scheme, reducedMotion: 'reduce', viewport, ...rest });
  context.setDefaultTimeout(WORK_MS);
  return context;
}

/** Collects uncaught page errors, so a test can assert the page ran cleanly. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Every file chooser the page opens, in order. Call it before the page navigates. Playwright turns chooser
 * interception on asynchronously when a 'filechooser' listener is first added and off when the last one goes, so
 * `waitForEvent` right before a key press races it: the press can reach Chromium un-intercepted, or a late chooser
 * can arrive with no listener and is then left pending, which makes Chromium ignore every later one. One
 * listener for the page's whole life avoids both.
 */
export function captureFileChoosers(page: Page): {
  readonly opened: number;
  next(timeoutMs?: number): Promise<FileChooser>;
} {
  const queue: FileChooser[] = [];
  const waiters: Array<(c: FileChooser) => void> = [];
  let opened = 0;
  page.on('filechooser', (c) => {
    opened++;
    const wake = waiters.shift();
    if (wake) wake(c);
    else queue.push(c);
  });
  return {
    get opened() {
      return opened;
    },
    next(timeoutMs = 20_000) {
      const ready = queue.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(take), 1);
          reject(new Error(`no file chooser opened in ${timeoutMs} ms`));
        }, timeoutMs);
        const take = (c: FileChooser) => {
          clearTimeout(timer);
          resolve(c);
        };
        waiters.push(take);
      });
    },
  };
}

/** axe-core's source, put into a page once per document (axeViolations). */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is now (all rules but experimental); violations as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // axe runs in the page itself (the app has no frames), put in once per document: a check after a scheme or width
  // switch reuses it. @axe-core/playwright compiled its 0.5 MB source twice per check, most of a check's CPU
  // (measured: 0.2 CPU s a check here, 0.8-1.3 with it). Only violations are read, so axe computes nothing else.
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(AXE_SOURCE);
    await page.evaluate(() => {
      (window as unknown as { axe: typeof import('axe-core') }).axe.configure({ allowedOrigins: ['<same_origin>'] });
    });
  }
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
        resultTypes: ['violations'],
      }) as Promise<AxeResults>,
  );
  return result.violations.map((v) => {
    const nodes = v.nodes
      .slice(0, 5)
      .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`);
    return `${v.id} (${v.impact}) ${v.help}\n    ${nodes.join('\n    ')}`;
  });
}

/** Screenshots are for a person to look at: CI has nobody to (set SHOTS_DIR to keep them there too). */
export const SHOTS_WANTED = !process.env.CI || !!process.env.SHOTS_DIR;

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SHOTS_WANTED) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Texts of the page's <main>, whitespace-normalised. */
export async function mainText(page: Page): Promise<string> {
  return ((await page.locator('main').innerText()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until `read()` satisfies `done` (polling every 50 ms), then returns its value; throws after `timeoutMs`. */
export async function until<T>(read: () => T | Promise<T>, done: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Taps a style tile and waits until the page says it is chosen (a tap that missed fails here, not at Continue). */
export async function chooseTile(tile: Locator): Promise<void> {
  await tile.click();
  await until(
    () => tile.getAttribute('aria-pressed'),
    (v) => v === 'true',
  );
}

/**
 * Switches the page's colour scheme and waits for colour transitions to end: elements with `transition-colors` pass
 * through mixed colours for a moment, which axe would read as low contrast.
 */
export async function switchScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // Until two frames pass with no colour transition running: the new scheme's transitions start at the next style
  // update, and a check made before they end reads a mix of both schemes' colours (axe read 1.09 contrast so).
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    for (let i = 0; i < 20; i++) {
      await frame();
      const running = document.getAnimations().filter((a) => a instanceof CSSTransition && a.playState !== 'finished');
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/**
 * Until the style step's moderation toast says it is done. A step that shows an error instead fails at once with it,
 * and a wait that times out says what the page showed: a failed run then tells why without a rerun.
 */
export async function moderationCompleted(page: Page): Promise<void> {
  const toast = page.getByRole('region', { name: 'Notifications' }).getByText('Moderation Completed');
  try {
    await toast.or(page.locator('main [role=alert]')).first().waitFor({ timeout: WORK_MS });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nThe page showed: ${await pageState(page)}`);
  }
  if (!(await toast.isVisible()))
    throw new Error(`No "Moderation Completed": the page showed ${await pageState(page)}`);
}

/** The URL, the alerts and the toasts a page shows, for a failure's message. */
async function pageState(page: Page): Promise<string> {
  const texts = (selector: string) =>
    page
      .locator(selector)
      .allInnerTexts()
      .then((t) => t.map((x) => x.replace(/\s+/g, ' ').trim()).join(' | '))
      .catch(() => '(unreadable)');
  return `${page.url()}; alerts: ${await texts('[role=alert]')}; toasts: ${await texts('[data-sonner-toast]')}`;
}

/** From the upload step with photos picked: on to the style step, until its moderation toast says it is done. */
export async function toModeratedStyles(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Choose Your Styles' }).click();
  await page.getByRole('heading', { name: 'Choose Your Styles', exact: true }).waitFor({ timeout: WORK_MS });
  await moderationCompleted(page);
}
