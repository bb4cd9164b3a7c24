import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleKey, engineBundle } from '../../engine/bundle';

/** The engine bundled as engine/Dockerfile ships it (the local container's and the bench's), built once per change. */
describe('engine bundle', () => {
  test('holds the container entry and the engine worker threads side by side, keyed by its sources', async () => {
    const entry = await engineBundle('local/engine-container-worker.ts');
    expect(entry).toBeDefined();
    const dir = path.dirname(entry as string);
    for (const file of ['engine-container-worker.js', 'style-worker.js', 'analysis-worker.js'])
      expect(fs.existsSync(path.join(dir, file))).toBe(true);
    const sources = JSON.parse(fs.readFileSync(path.join(dir, 'sources.json'), 'utf8')) as string[];
    expect(sources).toEqual(expect.arrayContaining(['engine/server.ts', 'engine/renderers/three-d.ts']));
    expect(sources.some((f) => f.includes('node_modules'))).toBe(false);
    expect(bundleKey(sources)).toBe(path.basename(dir));
    // unchanged sources: the same bundle, not built again
    const built = fs.statSync(`${entry}.js`).mtimeMs;
    expect(await engineBundle('local/engine-container-worker.ts')).toBe(entry);
    expect(fs.statSync(`${entry}.js`).mtimeMs).toBe(built);
  });

  test('a source that is gone has no key', () => {
    expect(bundleKey(['engine/no-such-file.ts'])).toBeNull();
    expect(bundleKey(['engine/server.ts'])).toMatch(/^[0-9a-f]{24}$/);
  });
});
