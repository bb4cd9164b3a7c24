/**
 * Site bench: how light and fast the site's pages are (the landing, pricing, the blog index, an article and a
 * guide), served by the local runtime.
 *   - JavaScript each page requests on load in Chromium, summed as gzip bytes on the wire (target ≤ 90 KB);
 *   - Lighthouse (mobile, simulated throttling): performance ≥ 95, accessibility 100.
 * Run: npm run bench site   (exit code 1 when a target is missed)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { REPO_ROOT } from '../domain/repo-paths';
import { buildFrontendIfStale } from '../frontend/build/when-stale';
import { contentSlugs } from '../lib/site-function';
import { startLocalRuntime } from '../local/runtime';
import { CHROME_FLAGS, CHROMIUM_PATH, launchChromium } from '../test/support/browser';

export const TARGETS = { jsGzipKb: 90, performance: 95, accessibility: 100 } as const;

export interface ScriptSize {
  url: string;
  wireBytes: number;
  gzip9Bytes: number;
}

/** The pages measured: one of each kind a visitor lands on from search. */
export function benchPages(): string[] {
  const guide = contentSlugs(REPO_ROOT, 'guides')[0];
  return ['/', '/pricing', '/blog', '/blog/pixar-filter-ai-generator', ...(guide ? [`/guides/${guide}`] : [])];
}

export interface PageBenchResult {
  url: string;
  scripts: ScriptSize[];
  /** Sum of the compressed bodies the browser received for JS (what the server sent, gzip). */
  jsGzipKb: number;
  /** The same files gzipped at level 9 here (a check on the server's compression). */
  jsGzip9Kb: number;
  lighthouse: Record<string, number | null>;
  /** Performance and accessibility audits that are not perfect: why a score is short. */
  findings: string[];
  pass: { js: boolean; performance: boolean; accessibility: boolean };
}

export interface SiteBenchResult {
  pages: PageBenchResult[];
}

/** JS requested while a page loads (up to network idle), with the sizes on the wire. */
async function measurePageJs(url: string): Promise<ScriptSize[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const responses: import('playwright-core').Response[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(new URL(r.url()).pathname)) responses.push(r);
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    return await Promise.all(
      responses.map(async (r) => {
        const body = await r.body();
        const sizes = await r.request().sizes();
        const encoded = r.headers()['content-encoding'] ? sizes.responseBodySize : zlib.gzipSync(body).length;
        return {
          url: new URL(r.url()).pathname,
          wireBytes: encoded,
          gzip9Bytes: zlib.gzipSync(body, { level: 9 }).length,
        };
      }),
    );
  } finally {
    await browser.close();
  }
}

async function runLighthouse(url: string): Promise<{ scores: Record<string, number | null>; findings: string[] }> {
  const { launch } = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits } = result.lhr;
    const scores: Record<string, number | null> = {};
    for (const [id, c] of Object.entries(categories)) scores[id] = c.score === null ? null : Math.round(c.score * 100);
    const findings: string[] = [];
    for (const id of ['performance', 'accessibility']) {
      for (const ref of categories[id]?.auditRefs ?? []) {
        const a = audits[ref.id];
        if (
          !a ||
          a.score === null ||
          a.score >= 1 ||
          a.scoreDisplayMode === 'informative' ||
          a.scoreDisplayMode === 'notApplicable'
        )
          continue;
        if (id === 'performance' && ref.weight === 0 && a.score >= 0.9) continue;
        findings.push(
          `${id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''} score ${Math.round(a.score * 100)}`,
        );
      }
    }
    for (const m of [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ]) {
      if (audits[m]) findings.push(`metric: ${audits[m].title} ${audits[m].displayValue ?? ''}`);
    }
    return { scores, findings };
  } finally {
    chrome.kill();
  }
}

export async function runSiteBench(log: (msg: string) => void = console.log): Promise<SiteBenchResult> {
  buildFrontendIfStale(log);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-site-bench-'));
  const runtime = await startLocalRuntime({ port: 0, dataDir });
  try {
    const pages: PageBenchResult[] = [];
    for (const page of benchPages()) {
      const url = runtime.url + page;
      log(`Measuring ${page}`);
      const scripts = await measurePageJs(url);
      const kb = (n: number) => Math.round((n / 1024) * 100) / 100;
      const jsGzipKb = kb(scripts.reduce((s, x) => s + x.wireBytes, 0));
      const jsGzip9Kb = kb(scripts.reduce((s, x) => s + x.gzip9Bytes, 0));
      const { scores, findings } = await runLighthouse(url);
      pages.push({
        url: page,
        scripts,
        jsGzipKb,
        jsGzip9Kb,
        lighthouse: scores,
        findings,
        pass: {
          js: jsGzipKb <= TARGETS.jsGzipKb,
          performance: (scores.performance ?? 0) >= TARGETS.performance,
          accessibility: (scores.accessibility ?? 0) >= TARGETS.accessibility,
        },
      });
    }
    return { pages };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatSiteBench(r: SiteBenchResult): string {
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const summary = [
    '| Page | JS gzip KB | Performance | Accessibility | Best practices | SEO |',
    '|------|-----------:|------------:|--------------:|---------------:|----:|',
    ...r.pages.map(
      (p) =>
        `| ${p.url} | ${p.jsGzipKb.toFixed(1)} | ${p.lighthouse.performance} | ${p.lighthouse.accessibility} | ${p.lighthouse['best-practices']} | ${p.lighthouse.seo} |`,
    ),
  ];
  return [...r.pages.map((p) => formatPage(p, ok)), 'Summary (mobile Lighthouse):', ...summary].join('\n\n');
}

function formatPage(r: PageBenchResult, ok: (b: boolean) => string): string {
  const lines = [
    `Page: ${r.url}`,
    '',
    'JS requested on load:',
    ...r.scripts.map((s) => `  ${(s.wireBytes / 1024).toFixed(2).padStart(7)} KB  ${s.url}`),
    '',
    '| Measure                         | Value     | Target   | Result |',
    '|---------------------------------|-----------|----------|--------|',
    `| JS, gzip on the wire            | ${`${r.jsGzipKb.toFixed(1)} KB`.padEnd(9)} | ≤ ${TARGETS.jsGzipKb} KB  | ${ok(r.pass.js).padEnd(6)} |`,
    `| (same files, gzip -9)           | ${`${r.jsGzip9Kb.toFixed(1)} KB`.padEnd(9)} |          |        |`,
    `| Lighthouse performance (mobile) | ${String(r.lighthouse.performance).padEnd(9)} | ≥ ${TARGETS.performance}     | ${ok(r.pass.performance).padEnd(6)} |`,
    `| Lighthouse accessibility        | ${String(r.lighthouse.accessibility).padEnd(9)} | ${TARGETS.accessibility}      | ${ok(r.pass.accessibility).padEnd(6)} |`,
    `| Lighthouse best practices       | ${String(r.lighthouse['best-practices']).padEnd(9)} |          |        |`,
    `| Lighthouse SEO                  | ${String(r.lighthouse.seo).padEnd(9)} |          |        |`,
    '',
    'Lighthouse findings:',
    ...r.findings.map((f) => `  - ${f}`),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  runSiteBench()
    .then((r) => {
      console.log(formatSiteBench(r));
      process.exit(r.pages.every((p) => Object.values(p.pass).every(Boolean)) ? 0 : 1);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(2);
    });
}
