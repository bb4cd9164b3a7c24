/**
 * The likeness of each face of a photo in a render of it: `npm run engine:likeness -- <photo> <render.png>`.
 * Prints {"threshold": t, "faces": [{"similarity": s, "box": [x, y, w, h], "renderBox": [...]}, ...]} (engine/likeness.ts).
 */
import fs from 'node:fs';
import { closeAnalysisThread } from '../index';
import { likeness } from '../likeness';

async function main(): Promise<void> {
  const [photo, render] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!photo || !render) {
    console.error('usage: npm run engine:likeness -- <photo.jpg|png> <render.png>');
    process.exit(2);
  }
  const result = await likeness(fs.readFileSync(photo), fs.readFileSync(render));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await closeAnalysisThread();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
