/**
 * The frontend build (`npm run build:frontend`, and the local runtime's build): Vite's client build, Vite's
 * SSR build of src/entry-server.tsx, then the prerender of every static page into frontend/dist.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prerender } from './prerender';
import { siteUrl } from './site-url';

// React and Vite pick their production builds from NODE_ENV (jest sets 'test').
process.env.NODE_ENV = 'production';

const frontendDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(frontendDir, '..');
const configFile = path.join(frontendDir, 'vite.config.ts');
const dist = path.join(frontendDir, 'dist');
// Inside the repository, so the SSR bundle's imports of react etc. resolve from node_modules.
const ssrDir = path.join(frontendDir, '.ssr');

/** Vite's own CLI: its builds run in their own process, away from this script's TypeScript loader. */
function vite(args: string[]): void {
  // vite's package exports hide bin/, so locate it from package.json.
  const bin = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [bin, 'build', '--config', configFile, ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const quiet = process.argv.includes('--quiet') ? ['--logLevel', 'warn'] : [];
  vite(quiet);
  // Server bundle (.mjs: this package is CommonJS) of the entry that renders one route.
  vite(['--ssr', path.join(frontendDir, 'src', 'entry-server.tsx'), '--outDir', ssrDir, '--emptyOutDir', '--logLevel', 'warn']);
  try {
    const pages = await prerender({ repoRoot, dist, serverEntry: path.join(ssrDir, 'entry-server.mjs') });
    fs.writeFileSync(path.join(dist, '.build-site-url'), siteUrl());
    console.log(`Prerendered ${pages} pages, sitemap.xml, robots.txt and feed.xml in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(ssrDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
