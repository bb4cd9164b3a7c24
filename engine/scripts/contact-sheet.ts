/**
 * Contact sheet: rows = test photos, columns = original + every style.
 *   npx tsx engine/scripts/contact-sheet.ts [out.png] [--cell 300] [--render 512] [--styles a,b] [--photos x.png,y.jpg] [--no-analysis]
 * Default output engine/out/contact-sheet.png. --render is the long side each style is rendered at
 * before being fitted into its cell (use --render 256 to judge thumbnails). --no-analysis renders every style
 * blind (as before the engine saw people), for side-by-side comparison.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { analyzePhoto, renderStyle, STYLES } from '../index';

const PHOTOS_DIR = path.resolve(__dirname, '../../test/fixtures/photos');
const DEFAULT_PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg', 'motorcycle_left.png'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

async function label(text: string, width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#222"/><text x="8" y="${height - 9}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${Math.round(height * 0.55)}" fill="#eee">${esc(text)}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function main(): Promise<void> {
  const positional = process.argv
    .slice(2)
    .filter(
      (a, i, all) => !a.startsWith('--') && !(i > 0 && all[i - 1].startsWith('--') && all[i - 1] !== '--no-analysis'),
    );
  const blind = process.argv.includes('--no-analysis');
  const out = path.resolve(positional[0] ?? path.join(__dirname, '../out/contact-sheet.png'));
  const cell = Number(arg('cell') ?? 300);
  const render = Number(arg('render') ?? 512);
  const styleFilter = arg('styles')?.split(',');
  const photos = arg('photos')?.split(',') ?? DEFAULT_PHOTOS;
  const styles = STYLES.filter((s) => !styleFilter || styleFilter.includes(s.id));
  const cols = [{ id: 'original', name: 'Original' }, ...styles];
  const labelH = 28;
  const W = cols.length * cell;
  const H = labelH + photos.length * cell;
  const composites: OverlayOptions[] = [];
  for (let c = 0; c < cols.length; c++) {
    composites.push({ input: await label(cols[c].name, cell, labelH), left: c * cell, top: 0 });
  }
  for (let r = 0; r < photos.length; r++) {
    const bytes = fs.readFileSync(path.isAbsolute(photos[r]) ? photos[r] : path.join(PHOTOS_DIR, photos[r]));
    const analysis = blind ? null : await analyzePhoto(bytes);
    for (let c = 0; c < cols.length; c++) {
      const id = cols[c].id;
      const t = performance.now();
      const png =
        id === 'original'
          ? await sharp(bytes).resize(render, render, { fit: 'inside', withoutEnlargement: true }).png().toBuffer()
          : await renderStyle(bytes, id, { maxSize: render, analysis });
      const ms = performance.now() - t;
      const tile = await sharp(png)
        .resize(cell - 4, cell - 4, { fit: 'contain', background: '#ffffff' })
        .png()
        .toBuffer();
      composites.push({ input: tile, left: c * cell + 2, top: labelH + r * cell + 2 });
      if (id !== 'original') process.stdout.write(`${photos[r]} ${id} ${ms.toFixed(0)} ms\n`);
    }
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } })
    .composite(composites)
    .png()
    .toFile(out);
  console.log(`wrote ${out} (${W}x${H})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
