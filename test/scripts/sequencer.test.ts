/** The test order on a fresh clone (test/support/sequencer.cjs): longest first, by recorded or typical seconds. */
import * as path from 'node:path';

const LongestFirst = require('../support/sequencer.cjs');
const recorded = require('../support/durations.json') as Record<string, number>;

const ROOT = path.resolve(__dirname, '../..');
type Fake = { path: string; context: unknown; duration?: number };

function file(project: string, rel: string, size: number): Fake {
  return {
    path: path.join(ROOT, rel),
    context: {
      config: { cache: false, displayName: { name: project }, rootDir: ROOT, id: project },
      hasteFS: { getSize: () => size },
    },
  };
}

it('without timings, starts the longest recorded files first, and new files by their project', () => {
  const tests = [
    file('unit', 'test/frontend/figures.test.ts', 4_000),
    file('unit', 'test/new-unit.test.ts', 40_000),
    file('browser', 'test/browser/new-browser.test.ts', 3_000),
    file('engine', 'test/engine/face-keep.test.ts', 9_000),
    file('browser', 'test/browser/downloads.test.ts', 15_000),
  ];
  const order = new LongestFirst({}).sort(tests).map((t: Fake) => path.relative(ROOT, t.path));
  // recorded: downloads (minutes) > face-keep > figures; the new browser file counts as a typical browser file
  expect(recorded['test/browser/downloads.test.ts']).toBeGreaterThan(recorded['test/engine/face-keep.test.ts']);
  expect(order).toEqual([
    'test/browser/downloads.test.ts',
    'test/engine/face-keep.test.ts',
    'test/browser/new-browser.test.ts',
    'test/frontend/figures.test.ts',
    'test/new-unit.test.ts',
  ]);
});

it('records no file that is gone', () => {
  const fs = require('node:fs') as typeof import('node:fs');
  for (const rel of Object.keys(recorded)) expect([rel, fs.existsSync(path.join(ROOT, rel))]).toEqual([rel, true]);
});
