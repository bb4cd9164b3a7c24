import { type Browser, chromium } from 'playwright-core';
import { type SharedRuntime, sharedRuntime } from './shared-runtime';

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
 * The shared local runtime (test/support/shared-runtime.ts) and Chromium for a browser suite, Chromium started before
 * its tests and stopped after them (this call registers the hooks): read them as `site.runtime` and `site.browser`.
 */
export function useRuntimeAndBrowser(): { runtime: SharedRuntime; browser: Browser } {
  const site = { runtime: sharedRuntime() } as { runtime: SharedRuntime; browser: Browser };
  beforeAll(async () => {
    site.browser = await launchChromium();
  });
  afterAll(async () => {
    await site.browser?.close();
  });
  return site;
}
