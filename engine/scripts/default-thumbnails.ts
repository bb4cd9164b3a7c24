/**
 * Generates the static style thumbnails for the web page from astronaut.png:
 *   frontend/public/thumbnails/{styleId}.png  256 px, no watermark, palette PNG (< 120 KB each)
 *   frontend/public/thumbnails/input.jpg      the original at 384 px, JPEG q80
 *   frontend/public/thumbnails/pixar.png      the `3d` style at 384 px
 * Run: npm run engine:thumbnails
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { renderAllThumbnails, renderStyle } from '../index';

const SRC = path.resolve(__dirname, '../../test/fixtures/photos/astronaut.png');
const OUT = path.resolve(__dirname, '../../frontend/public/thumbnails');
const MAX_BYTES = 120 * 1024;

async function compress(png: Buffer): Promise<Buffer> {
  // palette quantisation (libimagequant) with dithering keeps gradients clean and files small
  for (const [colours, quality] of [
    [256, 90],
    [192, 80],
    [128, 70],
  ] as const) {
    const out = await sharp(png)
      .png({ palette: true, colours, quality, effort: 10, compressionLevel: 9, dither: 0.6 })
      .toBuffer();
    if (out.length < MAX_BYTES) return out;
  }
  throw new Error('thumbnail does not fit the size budget');
}

async function main(): Promise<void> {
  const bytes = fs.readFileSync(SRC);
  fs.mkdirSync(OUT, { recursive: true });
  for (const { styleId, png } of await renderAllThumbnails(bytes, { size: 256, watermark: false })) {
    const small = await compress(png);
    fs.writeFileSync(path.join(OUT, `${styleId}.png`), small);
    console.log(`${styleId}.png ${(small.length / 1024).toFixed(1)} KB`);
  }
  const input = await sharp(bytes).resize(384, 384, { fit: 'inside' }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  fs.writeFileSync(path.join(OUT, 'input.jpg'), input);
  console.log(`input.jpg ${(input.length / 1024).toFixed(1)} KB`);
  const pixar = await compress(await renderStyle(bytes, '3d', { maxSize: 384 }));
  fs.writeFileSync(path.join(OUT, 'pixar.png'), pixar);
  console.log(`pixar.png ${(pixar.length / 1024).toFixed(1)} KB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
