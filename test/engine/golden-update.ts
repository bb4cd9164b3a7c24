/**
 * Re-pin the engine's golden renders (test/engine/golden.json) on purpose, after a change meant to alter a look:
 *   npm run engine:golden            re-render, write golden.json, and draw engine/out/golden-changes.png
 *   npm run engine:golden -- --check re-render twice and only report (nothing written): proves determinism
 *   tsx test/engine/golden-update.ts --print   print the hashes as JSON (what golden.test.ts compares)
 * The sheet shows each render whose hash changed, before (the committed code, HEAD, rendered from a `git archive`
 * copy of it) beside after (the working tree), so a reviewer sees what the new hashes mean.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { closeAnalysisThread } from '../../engine/index';
import type { Image8 } from '../../engine/raster';
import { GOLDEN_FILE, type GoldenFile, hashImage, readGolden, renderGolden } from './golden';

const ROOT = path.resolve(__dirname, '../..');
const SHEET = path.join(ROOT, 'engine/out/golden-changes.png');
const CELL = 256;
const LABEL = 24;

async function renderAll(
  keep?: ReadonlySet<string>,
): Promise<{ hashes: Record<string, string>; images: Map<string, Image8> }> {
  const hashes: Record<string, string> = {};
  const images = new Map<string, Image8>();
  await renderGolden((r) => {
    hashes[r.key] = hashImage(r.image);
    if (keep?.has(r.key)) images.set(r.key, r.image);
  });
  return { hashes, images };
}

/** `--dump dir k1,k2`: write those renders as PNGs (run inside the HEAD copy to get the "before" images). */
async function dump(dir: string, keys: string[]): Promise<void> {
  const { images } = await renderAll(new Set(keys));
  for (const [key, img] of images) await png(img).then((b) => fs.writeFileSync(path.join(dir, fileOf(key)), b));
}

const fileOf = (key: string) => `${key.replace(/[/@]/g, '_')}.png`;
const png = (img: Image8) =>
  sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 3 } })
    .png()
    .toBuffer();

/** The renders of `keys` by the committed code: HEAD's engine exported to a temp dir and run there. */
function beforeImages(keys: string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-golden-'));
  try {
    const tar = execFileSync(
      'git',
      ['archive', 'HEAD', 'engine', 'domain', 'test/engine', 'test/fixtures', 'tsconfig.json'],
      {
        cwd: ROOT,
        maxBuffer: 1 << 30,
      },
    );
    execFileSync('tar', ['-x', '-C', tmp], { input: tar });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'));
    const dir = path.join(tmp, 'before');
    fs.mkdirSync(dir);
    execFileSync(
      process.execPath,
      [require.resolve('tsx/cli'), 'test/engine/golden-update.ts', '--dump', dir, keys.join(',')],
      {
        cwd: tmp,
        stdio: 'inherit',
      },
    );
    for (const key of keys) {
      const file = path.join(dir, fileOf(key));
      if (fs.existsSync(file)) out.set(key, fs.readFileSync(file));
    }
  } catch (err) {
    console.warn(
      `no "before" renders from HEAD (${(err as Error).message.split('\n')[0]}): the sheet shows "after" only`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

async function label(text: string, width: number): Promise<Buffer> {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL}"><rect width="100%" height="100%" fill="#222"/><text x="6" y="${LABEL - 7}" font-family="DejaVu Sans, sans-serif" font-size="13" fill="#eee">${esc}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const tile = (png: Buffer) =>
  sharp(png)
    .resize(CELL - 4, CELL - 4, { fit: 'contain', background: '#ffffff' })
    .png()
    .toBuffer();

/** One row per changed render: before | after. */
async function sheet(keys: string[], before: Map<string, Buffer>, after: Map<string, Image8>): Promise<void> {
  const composites: OverlayOptions[] = [];
  for (let r = 0; r < keys.length; r++) {
    const top = r * (CELL + LABEL);
    composites.push({ input: await label(`${keys[r]}: before (HEAD) | after (working tree)`, 2 * CELL), left: 0, top });
    const old = before.get(keys[r]);
    if (old) composites.push({ input: await tile(old), left: 2, top: top + LABEL + 2 });
    const now = after.get(keys[r]);
    if (now) composites.push({ input: await tile(await png(now)), left: CELL + 2, top: top + LABEL + 2 });
  }
  fs.mkdirSync(path.dirname(SHEET), { recursive: true });
  await sharp({ create: { width: 2 * CELL, height: keys.length * (CELL + LABEL), channels: 3, background: '#ffffff' } })
    .composite(composites)
    .png()
    .toFile(SHEET);
  console.log(`wrote ${path.relative(ROOT, SHEET)} (${keys.length} changed renders, before | after)`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--dump') return dump(args[1], args[2].split(','));
  if (args[0] === '--print') {
    process.stdout.write(`${JSON.stringify((await renderAll()).hashes)}\n`);
    return;
  }
  const old = readGolden()?.renders ?? {};
  const first = await renderAll(new Set(Object.keys(old)));
  const changed = Object.keys(first.hashes).filter((k) => old[k] !== first.hashes[k]);
  const gone = Object.keys(old).filter((k) => !(k in first.hashes));
  if (args.includes('--check')) {
    const second = await renderAll();
    const unstable = Object.keys(first.hashes).filter((k) => second.hashes[k] !== first.hashes[k]);
    console.log(
      `${Object.keys(first.hashes).length} renders; ${changed.length} differ from golden.json; ${unstable.length} differ between two runs`,
    );
    if (unstable.length > 0 || changed.length > 0 || gone.length > 0) process.exitCode = 1;
    return;
  }
  const file: GoldenFile = {
    about:
      "SHA-256 of each style's raw RGB render of the golden cases (test/engine/golden.ts). Update on purpose only: npm run engine:golden",
    renders: first.hashes,
  };
  fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, GOLDEN_FILE)}: ${changed.length} changed, ${gone.length} removed`);
  const shown = changed.filter((k) => k in old);
  if (shown.length === 0) return;
  await sheet(shown, beforeImages(shown), first.images);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(closeAnalysisThread);
