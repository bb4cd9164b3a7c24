const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Longest first, so no worker is left running a two-minute file while the others sit idle at the end. Jest knows each
 * file's time from an earlier run on this machine; a fresh clone (CI) has none, and Jest then orders by file size,
 * which starts a 300-line browser suite (minutes) after 400-line unit files (a second). Without timings, files go by
 * the seconds recorded in durations.json (`npm run test:durations`); a file not recorded there yet, by its
 * project's typical file.
 */
const RECORDED = require('./durations.json');
const ROOT = path.resolve(__dirname, '../..');
const TYPICAL = { browser: 60, faults: 60, integration: 30, runtime: 30, engine: 20, local: 5, infra: 5, unit: 1 };

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((t) => t.duration != null)) return sorted;
    const seconds = (t) => RECORDED[path.relative(ROOT, t.path)] ?? TYPICAL[t.context.config.displayName?.name] ?? 1;
    // Array sort is stable: files of equal weight keep Jest's own order (by size).
    return sorted.sort((a, b) => seconds(b) - seconds(a));
  }
}

module.exports = LongestFirst;
