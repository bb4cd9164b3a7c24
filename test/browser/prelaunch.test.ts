import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { PHOTOS, startTestRuntime } from '../support/runtime';
import { axeViolations, chooseTile, newContext, screenshot, switchScheme, toModeratedStyles } from './site-helpers';

/** Pre-launch mode: the wizard ends in the 'notify me' sign-up and the thank-you screen with its share links. */
describe('pre-launch sign-up in the browser', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let browser: Browser;

  beforeAll(async () => {
    [runtime, browser] = await Promise.all([startTestRuntime({ paymentMode: 'prelaunch' }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
  });

  test('upload → styles → Continue → sign-up (validation) → Thank You! with Twitter and Facebook links, light and dark', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const violations: string[] = [];
    // Each screen in both schemes: colours come from CSS media queries, so the same screen is switched, not replayed.
    const axe = async (name: string) => {
      for (const scheme of ['dark', 'light'] as const) {
        await switchScheme(page, scheme);
        violations.push(...(await axeViolations(page)).map((v) => `${name} ${scheme}: ${v}`));
        await screenshot(page, `${name}-${scheme}-desktop`);
      }
    };

    await page.goto(runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.locator('input[type=file][multiple]').setInputFiles(path.join(PHOTOS, 'chelsea.png'));
    await page.getByText('1 of 50 files selected').waitFor();
    await toModeratedStyles(page);
    // Pre-launch: no prices on the style step.
    await chooseTile(page.locator('main button[aria-pressed]').first());
    expect(await page.getByText(/per image/).count()).toBe(0);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { level: 1, name: 'Be the First to Zap Your Photos!' }).waitFor();
    expect(await page.getByText('Payments are not live yet.').isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: /Original photo/ }).count()).toBe(1);
    // The sample says who drew it: the engine, in a style it draws in the product, not the model's 3D look.
    expect(await page.getByRole('img', { name: /drawn by our cartoon engine/ }).count()).toBe(1);
    expect(await page.locator('[data-sample-note]').innerText()).toContain('made by the AI model');
    await axe('signup');

    const email = page.getByLabel('Email address');
    const notify = page.getByRole('button', { name: 'Notify Me!' });
    await notify.click();
    expect(await page.getByRole('alert').innerText()).toBe('Email is required.');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await email.fill('not an@email');
    expect(await page.getByRole('alert').innerText()).toBe('Please enter a valid email address.');
    await axe('signup-error');
    await email.fill('fan@example.com');
    expect(await page.getByRole('alert').count()).toBe(0);

    const signup = page.waitForRequest((r) => r.url().endsWith('/api/preview-signup'));
    await notify.click();
    const body = JSON.parse((await signup).postData() ?? '{}') as { email: string; image_hash: string };
    expect(body.email).toBe('fan@example.com');
    expect(body.image_hash).toMatch(/^[0-9a-f]{64}$/);

    await page.getByRole('heading', { level: 1, name: 'Thank You!' }).waitFor();
    expect(await page.getByText('Keep an eye on your inbox for our launch announcement!').isVisible()).toBe(true);
    const text = 'Check out this cool AI photo generator!';
    const twitter = page.getByRole('link', { name: 'Share on Twitter' });
    const facebook = page.getByRole('link', { name: 'Share on Facebook' });
    expect(await twitter.getAttribute('href')).toBe(
      `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(runtime.url)}`,
    );
    expect(await facebook.getAttribute('href')).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(runtime.url)}`,
    );
    for (const link of [twitter, facebook]) {
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
    }
    await axe('thankyou');

    await page.getByRole('button', { name: 'Create Another Image' }).click();
    await page.getByRole('button', { name: 'Get Started' }).waitFor();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByText('0 of 50 files selected').waitFor();
    await context.close();
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
