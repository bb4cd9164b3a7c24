#!/usr/bin/env node
/**
 * Measures the JavaScript the landing page ('/') downloads: the entry script of frontend/dist/index.html
 * plus every chunk it imports statically (transitively), gzip level 9. Dynamic imports (the app,
 * wizard steps, routes) are loaded on interaction and are not counted.
 * Usage: node frontend/scripts/landing-size.cjs [--max-kb 90]
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const dist = path.join(__dirname, '..', 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('No module script in dist/index.html');

const seen = new Map();
function visit(url) {
  const file = path.join(dist, url.replace(/^\//, ''));
  if (seen.has(file)) return;
  const code = fs.readFileSync(file);
  seen.set(file, zlib.gzipSync(code, { level: 9 }).length);
  const text = code.toString('utf8');
  // Static imports only: `import ... from "./x.js"` and bare `import "./x.js"`.
  for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    visit(path.posix.join(path.posix.dirname(url), m[1]));
  }
}
visit(entry);

let total = 0;
for (const [file, gz] of [...seen].sort((a, b) => b[1] - a[1])) {
  total += gz;
  console.log(`${(gz / 1024).toFixed(2).padStart(8)} KB  ${path.relative(dist, file)}`);
}
console.log(`${(total / 1024).toFixed(2).padStart(8)} KB  total (gzip -9) for the landing page`);
const i = process.argv.indexOf('--max-kb');
if (i > 0 && total / 1024 > Number(process.argv[i + 1])) {
  console.error(`Landing JS exceeds ${process.argv[i + 1]} KB gzip`);
  process.exit(1);
}
