#!/usr/bin/env node
/**
 * Screenshots of every screen against the mock server (frontend/dev-mock/mock-server.ts).
 *   node frontend/dev-mock/screenshots.cjs [baseUrl=http://localhost:4173] [outDir=/tmp/shots] [filter]
 * Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
 */
const { chromium } = require('playwright-core');
const path = require('node:path');
const fs = require('node:fs');

const base = process.argv[2] || 'http://localhost:4173';
const out = process.argv[3] || '/tmp/shots';
const filter = process.argv[4] || '';
const photos = path.resolve(__dirname, '..', '..', '..', 'shared', 'photos');
fs.mkdirSync(out, { recursive: true });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];
const SCHEMES = ['light', 'dark'];

async function scenario(page, set = '', payment = 'simulated') {
  await page.request.get(`${base}/__mock/scenario?set=${set}&payment=${payment}`);
}

const SCENES = {
  async landing(page) {
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Get Started' }).waitFor();
  },
  async upload(page) {
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();
    await page.locator('input[type=file]').first().setInputFiles([
      ...['astronaut.png', 'chelsea.png', 'rocket.jpg'].map((f) => ({
        name: f,
        mimeType: f.endsWith('.png') ? 'image/png' : 'image/jpeg',
        buffer: fs.readFileSync(path.join(photos, f)),
      })),
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
    ]);
    await page.getByText('3 of 50 files selected').waitFor();
  },
  async uploading(page) {
    await scenario(page, 'slow-upload');
    await SCENES.upload(page);
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByRole('heading', { name: 'Uploading Photos' }).waitFor();
  },
  async styles(page) {
    await SCENES.upload(page);
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByText('Security Scan in Progress...').waitFor();
    await page.getByRole('button', { name: /Anime/ }).click();
    await page.getByRole('button', { name: /Watercolor/ }).click();
  },
  async stylesDone(page) {
    await SCENES.styles(page);
    await page.getByText('Generating Custom Thumbnails...').waitFor({ timeout: 15000 });
    await page.getByText('Generating Custom Thumbnails...').waitFor({ state: 'detached', timeout: 15000 });
    await page.waitForTimeout(500);
  },
  async order(page) {
    await SCENES.styles(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Almost Done! Confirm Your Order' }).waitFor();
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.waitForTimeout(300);
  },
  async checkoutError(page) {
    await scenario(page, 'checkout-error');
    await SCENES.order(page);
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.getByText('Checkout failed: Invalid e-mail domain').waitFor();
  },
  async uploadError(page) {
    await scenario(page, 's3-error');
    await SCENES.upload(page);
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByText('Upload failed: S3 upload failed: AccessDenied - Request has expired').waitFor();
  },
  async moderationNone(page) {
    await scenario(page, 'moderation-reject');
    await SCENES.styles(page);
    await page.getByText('No images passed moderation').waitFor({ timeout: 15000 });
  },
  async signup(page) {
    await scenario(page, '', 'prelaunch');
    await SCENES.styles(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Be the First to Zap Your Photos!' }).waitFor();
    await page.getByLabel('Email address').fill('not-an-email');
    await page.getByRole('button', { name: 'Notify Me!' }).click();
    await page.getByText('Please enter a valid email address.').waitFor();
  },
  async thankyou(page) {
    await scenario(page, '', 'prelaunch');
    await SCENES.styles(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Notify Me!' }).click();
    await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
  },
  async pricing(page) {
    await page.goto(`${base}/pricing`);
    await page.getByText('Styles chosen per photo').waitFor();
  },
  async terms(page) {
    await page.goto(`${base}/terms`);
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
  },
  async privacy(page) {
    await page.goto(`${base}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
  },
  async refund(page) {
    await page.goto(`${base}/refund`);
    await page.getByRole('heading', { name: 'Refund Policy' }).waitFor();
  },
  async statusProcessing(page) {
    await page.goto(`${base}/status/gen-processing`);
    await page.getByText('Your images are being generated. Please wait...').waitFor();
  },
  async statusCompleted(page) {
    await page.goto(`${base}/status/gen-completed`);
    await page.getByText('Generation complete! Here are your images:').waitFor();
    await page.waitForLoadState('networkidle');
  },
  async statusFailed(page) {
    await page.goto(`${base}/status/gen-failed`);
    await page.getByText('Generation Failed').waitFor();
  },
  async statusError(page) {
    await page.goto(`${base}/status/gen-500`);
    await page.getByText('Failed to load generation status: HTTP error! status: 500').waitFor();
  },
  async statusUnknown(page) {
    await page.goto(`${base}/status/gen-unknown`);
    await page.getByText('Unknown status: queued').waitFor();
  },
  async statusMissing(page) {
    await page.goto(`${base}/status`);
    await page.getByText('Generation ID is missing.').waitFor();
  },
  async image(page) {
    await page.goto(`${base}/image/abcdef0123456789/anime`);
    await page.getByRole('heading', { name: 'Anime' }).waitFor();
    await page.waitForLoadState('networkidle');
  },
  async imageMissing(page) {
    await page.goto(`${base}/image/missing/anime`);
    await page.getByText('Image or style not found.').waitFor();
  },
  async gallery(page) {
    await page.goto(`${base}/image/abcdef0123456789`);
    await page.getByRole('heading', { name: 'Watercolor' }).waitFor();
    await page.waitForLoadState('networkidle');
  },
  async blog(page) {
    await page.goto(`${base}/blog`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  },
  async article(page) {
    await page.goto(`${base}/blog/make-your-pet-a-pixar-character`);
    await page.getByText('Ready to Cartoonize Your Photos?').waitFor();
  },
  async notFound(page) {
    await page.goto(`${base}/blog/no-such-article`);
    await page.getByText('Oops! Page not found').waitFor();
  },
};

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const failures = [];
  for (const vp of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, colorScheme: scheme, deviceScaleFactor: 1, hasTouch: vp.name === 'mobile', isMobile: vp.name === 'mobile' });
      for (const [name, run] of Object.entries(SCENES)) {
        if (filter && !name.match(new RegExp(filter))) continue;
        const page = await context.newPage();
        page.on('pageerror', (e) => failures.push(`${name}/${vp.name}/${scheme}: pageerror ${e.message}`));
        page.on('console', (m) => m.type() === 'error' && console.log(`  [console ${name}] ${m.text()}`));
        page.on('dialog', (d) => d.dismiss());
        try {
          await scenario(page);
          await run(page);
          const file = path.join(out, `${name}-${vp.name}-${scheme}.png`);
          const toastScene = /Error$|None$/.test(name) && name !== 'statusError';
          if (!toastScene) await page.evaluate(() => window.scrollTo(0, 0));
          await page.waitForTimeout(150);
          await page.screenshot({ path: file, fullPage: !toastScene });
        } catch (e) {
          failures.push(`${name}/${vp.name}/${scheme}: ${e.message.split('\n')[0]}`);
          await page.screenshot({ path: path.join(out, `FAILED-${name}-${vp.name}-${scheme}.png`), fullPage: true }).catch(() => {});
        }
        await page.close();
      }
      await context.close();
    }
  }
  await browser.close();
  await fetch(`${base}/__mock/scenario?set=&payment=simulated`).catch(() => {});
  console.log(failures.length ? `FAILURES:\n${failures.join('\n')}` : 'all scenes OK');
})();
