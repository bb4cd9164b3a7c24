/**
 * The engine as engine/Dockerfile ships it, for what runs it outside the container (the local engine container,
 * the engine bench): bundled by esbuild, an entry and the style and analysis worker threads side by side, not through
 * the tsx dev loader, under which every style runs 20-35 % slower (engine/README.md). A bundle is made once per
 * change of what it is built from: its folder is named after the contents of the repository's source files that went
 * into it and the lock file (as local/template.ts keys the template), and a manifest beside it lists those files for
 * the next start. It sits under node_modules/.cache, so sharp, the SDK, tfjs's wasm binaries and the model files
 * resolve from it as they do from the sources.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/toonzap-engine');
/** The engine's own worker threads, which it starts from files beside its entry. */
const WORKERS = ['engine/style-worker.ts', 'engine/analysis-worker.ts'];
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

/** The newest bundle of `name` whose sources are unchanged, if any: the path of its entry without `.js`. */
function cachedEntry(name: string): string | undefined {
  if (!fs.existsSync(CACHE)) return undefined;
  for (const key of fs.readdirSync(CACHE)) {
    const dir = path.join(CACHE, key);
    try {
      const sources = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as string[];
      const entry = path.join(dir, name);
      if (bundleKey(sources) === key && fs.existsSync(`${entry}.js`)) return entry;
    } catch {
      // a bundle being written, or a broken one: not this one
    }
  }
  return undefined;
}

/**
 * `entry` (a repository path) bundled with the engine's worker threads: the bundled entry's path without `.js`,
 * built when its sources changed; undefined when esbuild cannot build it here (logged).
 */
export async function engineBundle(entry: string, log: (msg: string) => void = () => {}): Promise<string | undefined> {
  const name = path.basename(entry, '.ts');
  const cached = cachedEntry(name);
  if (cached) return cached;
  try {
    const { build } = await import('esbuild');
    const tmp = path.join(CACHE, `.build-${process.pid}-${Date.now()}`);
    const result = await build({
      // flat, named after each entry's file: the three side by side, as in the container
      entryPoints: Object.fromEntries([entry, ...WORKERS].map((e) => [path.basename(e, '.ts'), path.join(ROOT, e)])),
      outdir: tmp,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['sharp', '@aws-sdk/*', 'esbuild'],
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
    return path.join(dir, name);
  } catch (err) {
    log(`Engine bundle of ${entry} not built (${(err as Error).message})`);
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
