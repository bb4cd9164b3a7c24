/**
 * Writes test/support/durations.json, each test file's seconds in a full run, from Jest's JSON report:
 * `npx jest --json --outputFile=/tmp/jest.json ...` then `npm run test:durations -- /tmp/jest.json`. The test
 * sequencer (test/support/sequencer.cjs) starts the longest files first on a fresh clone, which has no timings of
 * its own; stale figures only change the order.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const report = process.argv[2];
if (!report) {
  console.error('usage: npm run test:durations -- <jest --json report>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..');
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((r) => [path.relative(root, r.name), Math.round((r.endTime - r.startTime) / 100) / 10])
    .sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync(path.join(root, 'test/support/durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files`);
