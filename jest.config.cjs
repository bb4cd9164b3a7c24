/**
 * Jest runs TypeScript through SWC (ts-jest does not work with TypeScript 7). One project per kind of test, so the
 * fast ones run alone (`npm run test:unit`, seconds) while `npm test` runs them all.
 */
const base = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/quiet-env.cjs'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    // @swc/jest with `Math` bound per module (test/support/jest-transform.cjs says why)
    '^.+\\.(t|j)sx?$': [
      '<rootDir>/test/support/jest-transform.cjs',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(some-esm-only)/)'],
};
const project = (displayName, roots, extra = {}) => ({
  ...base,
  displayName,
  roots: roots.map((r) => `<rootDir>/test/${r}`),
  ...extra,
});
// The runtime, browser and CloudFront Function tests read the built frontend: build it once, only when its sources changed.
const withSite = { globalSetup: '<rootDir>/test/support/global-setup.ts' };

module.exports = {
  // A safety net, not a measure: runtime and browser tests wait on whole orders (each wait ends on its event), and a
  // loaded machine stretches them; a test that hangs still fails, later.
  testTimeout: 600_000,
  // Three: many runtime tests spend much of their time waiting (quotas, polls, retries' backoff), so a third
  // file overlaps those waits on a two-core machine.
  maxWorkers: 3,
  // Without timings from an earlier run (a fresh clone, CI), the heaviest projects' files start first.
  testSequencer: '<rootDir>/test/support/sequencer.cjs',
  projects: [
    project('unit', ['domain', 'frontend', 'lambdas', 'scripts']),
    project('engine', ['engine']),
    project('infra', ['infra'], withSite),
    project('local', ['local']),
    project('integration', ['integration'], withSite),
    // Not in `npm test`, which keeps the journeys above (upload to previews, pay to delivered, a refund, a
    // kill-and-restart) and holds each handler's rules in its handler test: `npm run test:slow` runs these. runtime:
    // the stand-ins' wiring through a whole runtime (presigned PUTs, model endpoints, logs, generative orders);
    // faults: SIGKILL at every step of twenty, and of a process that just started an execution (minutes of restarts).
    project('runtime', ['runtime'], withSite),
    project('faults', ['faults'], withSite),
    // One runtime process shared by the browser suites (test/support/shared-runtime.ts says why).
    project('browser', ['browser'], {
      globalSetup: '<rootDir>/test/support/shared-runtime-setup.ts',
      globalTeardown: '<rootDir>/test/support/shared-runtime-teardown.ts',
    }),
  ],
};
