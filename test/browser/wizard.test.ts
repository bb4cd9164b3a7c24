import * as path from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { mediaClient, PHOTOS, photo, sha256 } from '../support/api-client';
import { useRuntimeAndBrowser } from '../support/browser';
import { chooseTile, WORK_MS } from './site-helpers';

/** A visitor in Chromium: upload a photo, reach the style step, see their own photo in every style. */
describe('wizard in the browser', () => {
  const site = useRuntimeAndBrowser();

  test('upload a photo through the page: it is stored under its hash, moderated, and previewed in every style', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Upload Your Photos' }).waitFor();

    await page.locator('input[type=file]').first().setInputFiles(path.join(PHOTOS, 'astronaut.png'));
    await page.getByText('1 of 50 files selected').waitFor();
    // Every frame from here on: where the first style tile sits on the page, and whether a progress notice shows.
    await page.evaluate(() => {
      const seen = { tops: [] as number[], progress: false };
      Object.assign(window, { __tiles: seen });
      const look = () => {
        const tile = document.querySelector('main button[aria-pressed]');
        if (tile) {
          const top = Math.round(tile.getBoundingClientRect().top + window.scrollY);
          if (!seen.tops.includes(top)) seen.tops.push(top);
          if (/in Progress|Generating Custom Thumbnails/.test(document.querySelector('main')?.textContent ?? ''))
            seen.progress = true;
        }
        requestAnimationFrame(look);
      };
      look();
    });
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page.getByRole('heading', { name: 'Choose Your Styles' }).waitFor({ timeout: WORK_MS });

    await page
      .getByRole('region', { name: 'Notifications' })
      .getByText('1 / 1 images passed moderation.')
      .waitFor({ timeout: WORK_MS });
    // Checked at the style step, the page's upload is now the photo's stored copy, under its hash.
    const hash = sha256(photo('astronaut.png'));
    const s3 = mediaClient(site.runtime);
    const stored = await s3.send(
      new GetObjectCommand({ Bucket: site.runtime.env.MEDIA_BUCKET, Key: `uploads/${hash}` }),
    );
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(hash);
    s3.destroy();
    const styles = (await (await fetch(`${site.runtime.url}/api/available-styles`)).json()).styles as {
      id: string;
      name: string;
      aiGenerated: boolean;
    }[];
    // npm start's Bedrock stand-in draws the generative styles with the engine: their tiles say so, none says
    // "AI-generated", and the note names them.
    const generative = styles.filter((s) => s.aiGenerated);
    expect(generative.length).toBeGreaterThan(0);
    await page.locator('[data-stand-in-note]').waitFor();
    expect(await page.locator('[data-stand-in]').count()).toBe(generative.length);
    expect(await page.getByText('AI-generated', { exact: true }).count()).toBe(0);
    const note = await page.locator('[data-stand-in-note]').innerText();
    for (const s of generative) expect(note).toContain(s.name);
    expect(note).toContain("not the AI model's output");
    // Every tile shows this photo's own preview, served from the media bucket.
    await page.waitForFunction(
      ({ hash, count }) => document.querySelectorAll(`img[src*="/previews/${hash}/"]`).length === count,
      { hash, count: styles.length },
      { timeout: WORK_MS },
    );
    // Each preview the page shows is a real PNG behind its URL (tiles below the fold load lazily, so fetch them).
    const srcs = await page.$$eval(`img[src*="/previews/${hash}/"]`, (imgs) =>
      imgs.map((i) => (i as HTMLImageElement).src),
    );
    for (const src of srcs) {
      const res = await fetch(src);
      expect(res.status).toBe(200);
      expect([...new Uint8Array(await res.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    }

    // The notices came and went, and the tiles never moved: a tap meant for one lands on it.
    await page.locator('main').getByText('1 / 1 images passed moderation.', { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __tiles: unknown }).__tiles)).toEqual({
      tops: [expect.any(Number)],
      progress: true,
    });

    const cont = page.getByRole('button', { name: 'Continue' });
    expect(await cont.isDisabled()).toBe(true);
    await chooseTile(page.getByRole('button', { name: /3D/ }).first());
    expect(await cont.isDisabled()).toBe(false);
    expect(errors).toEqual([]);
  });

  test("the engine's tiles show when moderation ends, without waiting for the previews job", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(site.runtime.url);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.locator('input[type=file]').first().setInputFiles(path.join(PHOTOS, 'grace_hopper.jpg'));
    await page.getByText('1 of 50 files selected').waitFor();
    await page.getByRole('button', { name: 'Choose Your Styles' }).click();
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByText('1 / 1 images passed moderation.')
      .waitFor({ timeout: WORK_MS });
    // From now on every job the page polls is still running: the previews job never ends for the page.
    await page.route('**/api/jobs/**', (route) => route.fulfill({ json: 'STARTED' }));
    const styles = (await (await fetch(`${site.runtime.url}/api/available-styles`)).json()).styles as {
      id: string;
      aiGenerated: boolean;
    }[];
    const hash = sha256(photo('grace_hopper.jpg'));
    // The engine's previews (made by the moderation job) show, and the generative ones fill in as they come:
    // the page reads the list at each poll, not only when the job ends.
    await page.waitForFunction(
      ({ hash, count }) => document.querySelectorAll(`img[src*="/previews/${hash}/"]`).length === count,
      { hash, count: styles.length },
      { timeout: WORK_MS },
    );
    await page.close();
  });
});
