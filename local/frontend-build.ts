import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../lib/functions';
import { FRONTEND_DIST } from '../lib/site';

/** Inputs of the frontend bundle; a change in any of them makes frontend/dist stale. */
const INPUTS = ['frontend/src', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', 'domain', 'package-lock.json'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

export function frontendIsStale(): boolean {
  const built = path.join(FRONTEND_DIST, 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return INPUTS.some((p) => newestMtime(path.join(REPO_ROOT, p)) > builtAt);
}

/** Builds the frontend with Vite when its inputs changed since the last build. */
export function buildFrontendIfStale(log: (msg: string) => void = console.log): void {
  if (!frontendIsStale()) return;
  log('Building the frontend (vite build)...');
  const started = Date.now();
  // vite's package exports hide bin/, so locate it from package.json.
  const viteBin = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [viteBin, 'build', '--config', 'frontend/vite.config.ts', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    // Vite keeps an inherited NODE_ENV: under jest (NODE_ENV=test) it would ship React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  log(`Frontend built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
