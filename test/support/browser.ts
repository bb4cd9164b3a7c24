import * as fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { type SharedRuntime, sharedRuntime } from './shared-runtime';

/** Debian's Chromium, headless; flags keep it off the (closed) network. Browsers are never downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What the tests drive: Debian's chromium-headless-shell when installed (the same Blink and V8 without the desktop
 * browser around them; the browser suites spent 612 CPU s with Chromium and 364 with it, measured), else
 * CHROMIUM_PATH. CHROMIUM_PATH set chooses for both.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const TEST_BROWSER_PATH =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH);

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
  return chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROME_FLAGS });
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
