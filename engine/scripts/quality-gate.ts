/**
 * `npx tsx engine/scripts/quality-gate.ts [size] [photo...]`: the quality gate's measures (quality-gate.ts) of every
 * engine style on the fixture photos (default all, at 512 px), plus a blank image's, one JSON line each. The floors
 * in quality-gate.ts are set under the lowest honest figures this prints.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { REPO_ROOT } from '../../domain/repo-paths';
import { closeAnalysisThread, closeStylePool, renderStyle, STYLE_IDS } from '../index';
import { checkQuality } from '../quality-gate';

async function main() {
  const size = Number(process.argv[2] ?? 512);
  const dir = path.join(REPO_ROOT, 'test/fixtures/photos');
  const photos = process.argv.slice(3).length
    ? process.argv.slice(3)
    : fs
        .readdirSync(dir)
        .filter((f) => /\.(png|jpg)$/.test(f))
        .map((f) => path.join(dir, f));
  for (const file of photos) {
    const photo = fs.readFileSync(file);
    const blank = await sharp({ create: { width: size, height: size, channels: 3, background: '#8a8a8a' } })
      .png()
      .toBuffer();
    const row = (style: string, q: object) => console.log(JSON.stringify({ photo: path.basename(file), style, ...q }));
    row('(blank)', await checkQuality(photo, blank));
    for (const style of STYLE_IDS)
      row(style, await checkQuality(photo, await renderStyle(photo, style, { maxSize: size })));
  }
  await closeStylePool();
  await closeAnalysisThread();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
