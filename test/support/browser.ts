import { type Browser, chromium } from 'playwright-core';

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
