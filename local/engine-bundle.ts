/**
 * The local engine container runs the engine as engine/Dockerfile ships it: bundled by esbuild (its entry and the
 * style and analysis worker threads side by side), not through the tsx dev loader, under which every style runs
 * 20-35 % slower (engine/README.md) and a paid order waits on it. The bundle is made once per change of what it is
 * built from: its folder is named after the contents of the repository's source files that went into it and the lock
 * file (as local/template.ts keys the template), and a manifest beside it lists those files for the next start.
 * It sits under node_modules/.cache (as the engine bench's does), so sharp, the SDK, tfjs's wasm binaries and the
 * model files resolve from it as they do from the sources.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/toonzap-local-engine');
/** The entry the container's worker thread runs, and the engine's own worker threads it starts beside itself. */
const ENTRIES = ['local/engine-container-worker.ts', 'engine/style-worker.ts', 'engine/analysis-worker.ts'];
const MANIFEST = 'sources.json';

/** The key of a bundle built from these repository files (relative paths), or null when one of them is gone. */
export function bundleKey(sources: readonly string[]): string | null {
  const hash = createHash('sha256').update(`${process.version}\0`);
  for (const file of [...sources, 'package-lock.json'].sort()) {
    const abs = path.join(ROOT, file);
    if (!fs.existsSync(abs)) return null;
    hash.update(`${file}\0`).update(fs.readFileSync(abs)).update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

/** The newest bundle whose sources are unchanged, if any: the path of its entry without `.js`. */
function cachedEntry(): string | undefined {
  if (!fs.existsSync(CACHE)) return undefined;
  for (const key of fs.readdirSync(CACHE)) {
    const dir = path.join(CACHE, key);
    try {
      const sources = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as string[];
      const entry = path.join(dir, 'engine-container-worker');
      if (bundleKey(sources) === key && fs.existsSync(`${entry}.js`)) return entry;
    } catch {
      // a bundle being written, or a broken one: not this one
    }
  }
  return undefined;
}

/**
 * The bundled container worker (its path without `.js`, for spawnWorker), built when the sources changed; undefined
 * when esbuild cannot build it here (the container then runs the sources through tsx: same results, slower).
 */
export async function engineBundle(log: (msg: string) => void = () => {}): Promise<string | undefined> {
  const cached = cachedEntry();
  if (cached) return cached;
  try {
    const { build } = await import('esbuild');
    const tmp = path.join(CACHE, `.build-${process.pid}-${Date.now()}`);
    const result = await build({
      // flat, named after each entry's file: the three side by side, as in the container
      entryPoints: Object.fromEntries(ENTRIES.map((e) => [path.basename(e, '.ts'), path.join(ROOT, e)])),
      outdir: tmp,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['sharp', '@aws-sdk/*'],
      metafile: true,
      logLevel: 'error',
      absWorkingDir: ROOT, // the metafile's inputs relative to the repository
    });
    const sources = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules'));
    const key = bundleKey(sources);
    if (!key) throw new Error('a source changed while it was bundled');
    fs.writeFileSync(path.join(tmp, MANIFEST), JSON.stringify(sources));
    const dir = path.join(CACHE, key);
    // another runtime starting at the same time may have built the same bundle: its copy is as good
    if (fs.existsSync(dir)) fs.rmSync(tmp, { recursive: true, force: true });
    else fs.renameSync(tmp, dir);
    prune(key);
    return path.join(dir, 'engine-container-worker');
  } catch (err) {
    log(`Engine bundle not built (${(err as Error).message}); the engine container runs its sources through tsx`);
    return undefined;
  }
}

/** Bundles kept: every change of the engine makes one (about 10 MB); the newest few stay (other checkouts' too). */
const KEEP = 6;

function prune(current: string): void {
  const dirs = fs
    .readdirSync(CACHE)
    .filter((d) => d !== current && !d.startsWith('.'))
    .map((d) => ({ d, t: fs.statSync(path.join(CACHE, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of dirs.slice(KEEP - 1)) fs.rmSync(path.join(CACHE, d), { recursive: true, force: true });
}
