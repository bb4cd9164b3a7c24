/**
 * Render one style: `npm run engine:render -- <photo> <style> <out.png> [size] [--no-analysis]`.
 * size is the output's long side (default 2048; a smaller photo is enlarged to it, as for a paid render); --no-analysis renders as without people/faces.
 */
import fs from 'node:fs';
import { analyzePhoto, closeAnalysisThread, closeStylePool, renderStyle, STYLE_IDS } from '../index';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [photo, style, out, size] = args.filter((a) => !a.startsWith('--'));
  if (!photo || !style || !out) {
    console.error(
      `usage: npm run engine:render -- <photo> <style> <out.png> [size] [--no-analysis]\nstyles: ${STYLE_IDS.join(', ')}`,
    );
    process.exit(2);
  }
  const bytes = fs.readFileSync(photo);
  const t0 = performance.now();
  const analysis = args.includes('--no-analysis') ? null : await analyzePhoto(bytes);
  const t1 = performance.now();
  const png = await renderStyle(bytes, style, { maxSize: size ? Number(size) : undefined, enlarge: true, analysis });
  fs.writeFileSync(out, png);
  const faces = analysis ? analysis.faces.length : 0;
  console.error(
    `${out}: ${style}, ${faces} face(s), analysis ${Math.round(t1 - t0)} ms, render ${Math.round(performance.now() - t1)} ms`,
  );
  await Promise.all([closeStylePool(), closeAnalysisThread()]);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
