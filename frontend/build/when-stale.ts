/**
 * The frontend build when its inputs changed since the last one: `npm start`, the test setups and the site bench
 * build before they serve frontend/dist.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FRONTEND_DIST, REPO_ROOT } from '../../domain/repo-paths';
import { siteUrl } from './site-url';

/** Inputs of the frontend build; a change in any of them makes frontend/dist stale. */
const INPUTS = [
  'frontend/src',
  'frontend/public',
  'frontend/index.html',
  'frontend/vite.config.ts',
  'frontend/build',
  'domain',
  'lib/site-function.ts',
  'package-lock.json',
];
/** Written last by the build: the PUBLIC_SITE_URL it was made for (a build for another origin is stale too). */
const STAMP = path.join(FRONTEND_DIST, '.build-site-url');

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

export function frontendIsStale(): boolean {
  if (!fs.existsSync(STAMP) || fs.readFileSync(STAMP, 'utf8') !== siteUrl()) return true;
  const builtAt = fs.statSync(STAMP).mtimeMs;
  return INPUTS.some((p) => newestMtime(path.join(REPO_ROOT, p)) > builtAt);
}

/** Builds the frontend with Vite when its inputs changed since the last build. */
export function buildFrontendIfStale(log: (msg: string) => void = console.log): void {
  if (!frontendIsStale()) return;
  log('Building the frontend (vite build and prerender)...');
  const started = Date.now();
  // The same build as `npm run build:frontend` (frontend/build/build.ts), run by tsx.
  const tsxCli = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
  execFileSync(process.execPath, [tsxCli, 'frontend/build/build.ts', '--quiet'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    // Vite keeps an inherited NODE_ENV: under jest (NODE_ENV=test) it would ship React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  log(`Frontend built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
