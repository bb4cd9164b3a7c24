#!/usr/bin/env node
/**
 * Adds lock entries for other platforms' optional binaries (biome, swc, tailwind oxide, unrs-resolver...) that
 * package-lock.json lacks. The npm registry reachable from our machines serves no darwin/win32/... builds of these
 * packages, so `npm install` here cannot record them, and `npm ci` then refuses the lock ("Missing: X@ from lock
 * file": its ideal tree names every optional dependency, installable here or not).
 *
 * Each entry is what npm itself records for a package of another platform: the exact version the parent pins,
 * `optional`, the parent's dev flag, and the os/cpu/libc read from the package's name (the naming these projects
 * publish under). There is no integrity: npm fetches and checks it only on the platform that installs it.
 * Run after anything regenerates the lock: `npm run lock:complete` (idempotent); CI runs plain `npm ci`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = {
  x64: 'x64',
  arm64: 'arm64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  wasm32: 'wasm32',
};

/** os/cpu/libc from a platform package name such as `cli-linux-x64-musl` or `core-win32-arm64-msvc`. */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!cpu) return null;
  const out = {};
  if (os) out.os = [os];
  out.cpu = [cpu];
  if (os === 'linux') out.libc = [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'];
  return out;
}

const EXACT = /^\d+\.\d+\.\d+(-[\w.]+)?$/;
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  if (!path.startsWith('node_modules/') || !meta.optionalDependencies) continue;
  for (const [dep, spec] of Object.entries(meta.optionalDependencies)) {
    // npm resolves a dependency in the parent's own node_modules first, then up the tree to the top.
    const nested = `${path}/node_modules/${dep}`;
    if (pkgs[nested] || pkgs[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !EXACT.test(spec)) continue;
    const entry = { version: spec };
    if (meta.dev) entry.dev = true;
    if (meta.devOptional) entry.devOptional = true;
    Object.assign(entry, { optional: true }, platform);
    pkgs[`node_modules/${dep}`] = entry;
    added++;
  }
}

if (added) {
  // npm keeps the entries sorted by path; so do we, so an npm install afterwards leaves a small diff.
  const [root, ...rest] = Object.keys(pkgs);
  const sorted = { [root]: pkgs[root] };
  for (const k of rest.sort((a, b) => a.localeCompare(b, 'en'))) sorted[k] = pkgs[k];
  lock.packages = sorted;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`complete-lock: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
