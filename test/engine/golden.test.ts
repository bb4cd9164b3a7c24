/**
 * The engine's output pinned: every style's render of the golden cases (golden.ts) must hash as golden.json says.
 * A change that means to alter a style's look updates the file on purpose with `npm run engine:golden`, which also
 * draws the before/after sheet of what changed (engine/out/golden-changes.png) for the reviewer.
 * The renders run in a plain Node process (tsx), as the engine runs in production: inside Jest's module sandbox
 * the same 32 renders took 40 s instead of 5.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { STYLE_IDS } from '../../domain/styles';
import { GOLDEN_PHOTOS, GOLDEN_SIZES, readGolden } from './golden';

const ROOT = path.resolve(__dirname, '../..');

it('renders every style of the golden photos to the pinned bytes (npm run engine:golden updates them)', () => {
  const pinned = readGolden()?.renders ?? {};
  const out = execFileSync(process.execPath, [require.resolve('tsx/cli'), 'test/engine/golden-update.ts', '--print'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TOONZAP_ENGINE_WORKERS: '0' },
  });
  const actual = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, string>;
  expect(Object.keys(actual)).toHaveLength(STYLE_IDS.length * GOLDEN_PHOTOS.length * GOLDEN_SIZES.length);
  const changed = Object.keys(actual).filter((k) => pinned[k] !== actual[k]);
  expect(changed).toEqual([]);
  // nothing pinned that is no longer rendered (a style removed without updating the file)
  expect(Object.keys(pinned).sort()).toEqual(Object.keys(actual).sort());
});
