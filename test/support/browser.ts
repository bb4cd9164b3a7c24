import { type Browser, chromium } from 'playwright-core';
import { startTestRuntime } from './runtime';

type TestRuntime = Awaited<ReturnType<typeof startTestRuntime>>;

/** Debian's Chromium, headless; flags keep it off the (closed) network. Browsers are never downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium's flags here and for the Lighthouse bench (bench/site.ts), which launches it through chrome-launcher. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROME_FLAGS });
}

/**
 * The local runtime and Chromium for a browser suite, started together before its tests and stopped after them (this
 * call registers the hooks): read them as `site.runtime` and `site.browser` in tests and later hooks.
 */
export function useRuntimeAndBrowser(): { runtime: TestRuntime; browser: Browser } {
  const site = {} as { runtime: TestRuntime; browser: Browser };
  beforeAll(async () => {
    [site.runtime, site.browser] = await Promise.all([startTestRuntime(), launchChromium()]);
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.runtime?.close();
  });
  return site;
}
