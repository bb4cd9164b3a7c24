const Sequencer = require('@jest/test-sequencer').default;

/**
 * Longest first, so no worker is left running a two-minute file while the others sit idle at the end. Jest knows each
 * file's time from an earlier run on this machine; a fresh clone (CI) has none, and Jest then orders by file size,
 * which starts a 300-line browser suite (minutes) after 400-line unit files (a second). Without timings, files go by
 * their project's weight first, then by size.
 */
const WEIGHT = { browser: 5, faults: 5, integration: 4, runtime: 4, engine: 3, local: 2, infra: 2, unit: 1 };

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((t) => t.duration != null)) return sorted;
    const weight = (t) => WEIGHT[t.context.config.displayName?.name] ?? 1;
    // Array sort is stable: within a project, Jest's own order (by size) stays.
    return sorted.sort((a, b) => weight(b) - weight(a));
  }
}

module.exports = LongestFirst;
