/** The test order on a fresh clone (test/support/sequencer.cjs): the heaviest projects' files first, then by size. */
const LongestFirst = require('../support/sequencer.cjs');

type Fake = { path: string; context: unknown };

function file(project: string, name: string, size: number): Fake {
  return {
    path: `/repo/test/${project}/${name}`,
    context: {
      config: { cache: false, displayName: { name: project }, rootDir: '/repo', id: project },
      hasteFS: { getSize: () => size },
    },
  };
}

it('without timings, starts browser suites before bigger unit files, and keeps size order within a project', () => {
  const tests = [
    file('unit', 'big.test.ts', 40_000),
    file('browser', 'small.test.ts', 3_000),
    file('engine', 'render.test.ts', 9_000),
    file('browser', 'big.test.ts', 15_000),
    file('unit', 'small.test.ts', 1_000),
  ];
  const order = new LongestFirst({}).sort(tests).map((t: Fake) => t.path.replace('/repo/test/', ''));
  expect(order).toEqual([
    'browser/big.test.ts',
    'browser/small.test.ts',
    'engine/render.test.ts',
    'unit/big.test.ts',
    'unit/small.test.ts',
  ]);
});
