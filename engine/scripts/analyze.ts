/**
 * Print a photo's analysis as JSON: `npm run engine:analyze -- <photo> [--full]`.
 * Faces with eye centres (iris), widths, iris radii and openness, the person mask's coverage, the time taken
 * (model loading included); the 468 landmarks only with --full.
 */
import fs from 'node:fs';
import { analyzePhoto } from '../index';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) {
    console.error('usage: npm run engine:analyze -- <photo.jpg|png> [--full]');
    process.exit(2);
  }
  const t0 = performance.now();
  const a = await analyzePhoto(fs.readFileSync(file));
  const ms = Math.round(performance.now() - t0);
  const round = (v: number) => Math.round(v * 100) / 100;
  const eye = (e: { center: [number, number]; width: number; irisRadius: number; open: number }) => ({
    center: e.center.map(round),
    width: round(e.width),
    irisRadius: round(e.irisRadius),
    open: round(e.open),
  });
  const summary = {
    photo: file,
    width: a.width,
    height: a.height,
    coverage: a.coverage,
    person: a.mask !== null,
    faces: a.faces.map((f) => ({
      score: round(f.score),
      box: f.box.map(round),
      eyes: { left: eye(f.eyes.left), right: eye(f.eyes.right) },
      interIris: round(
        Math.hypot(f.eyes.left.center[0] - f.eyes.right.center[0], f.eyes.left.center[1] - f.eyes.right.center[1]),
      ),
      ...(args.includes('--full') ? { landmarks: f.landmarks.map((p) => p.map(round)) } : {}),
    })),
    ms,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
