/**
 * Faces found per hard case of issue 33 (MISSED_CASES) and false faces on the photos without people:
 * `npx tsx test/engine/missed-faces.ts [--write dir]` prints a table (and the cases' PNGs with --write).
 */
import fs from 'node:fs';
import path from 'node:path';
import { analyzePhoto, closeAnalysisThread } from '../../engine';
import { darken, greyscale, MISSED_CASES, scene } from './hard-cases';
import { photo } from './helpers';

/** Faces each case must have: every pasted portrait. */
export const EXPECTED: Record<string, number> = Object.fromEntries(
  Object.keys(MISSED_CASES).map((k) => [k, k.includes('pair') ? 2 : 1]),
);

async function main(): Promise<void> {
  const dir = process.argv.includes('--write') ? process.argv[process.argv.indexOf('--write') + 1] : undefined;
  const rows: string[] = [];
  for (const [name, make] of Object.entries(MISSED_CASES)) {
    const png = await make();
    if (dir) fs.writeFileSync(path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '_')}.png`), png);
    const t = performance.now();
    const a = await analyzePhoto(png, { thorough: true }); // a paid render's
    const ms = Math.round(performance.now() - t);
    const sizes = a.faces.map((f) => (f.box[3] / Math.max(a.width, a.height)).toFixed(3));
    rows.push(`| ${name} | ${a.faces.length} / ${EXPECTED[name]} | ${sizes.join(' ')} | ${ms} |`);
  }
  const bg = await scene([]);
  const none: [string, Buffer][] = [
    ...['coffee.png', 'motorcycle_left.png', 'rocket.jpg', 'chelsea.png'].map((n) => [n, photo(n)] as [string, Buffer]),
    ['motorcycle scene', bg],
    ['motorcycle scene grey', await greyscale(bg)],
    ['motorcycle scene dark', await darken(bg)],
  ];
  for (const [name, png] of none) {
    const a = await analyzePhoto(png, { thorough: true });
    rows.push(`| ${name} | ${a.faces.length} / 0 | | |`);
  }
  console.log(rows.join('\n'));
}

main()
  .then(() => closeAnalysisThread())
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
