/**
 * Site bench: how light and fast the landing page ('/') is, served by the local runtime.
 *   - JavaScript the page requests on load in Chromium, summed as gzip bytes on the wire (target ≤ 90 KB);
 *   - Lighthouse (mobile, simulated throttling): performance ≥ 95, accessibility 100.
 * Run: npx tsx bench/site.ts   (exit code 1 when a target is missed)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { buildFrontendIfStale } from '../local/frontend-build';
import { startLocalRuntime } from '../local/runtime';
import { CHROME_FLAGS, CHROMIUM_PATH, launchChromium } from '../test/support/browser';

export const TARGETS = { landingJsGzipKb: 90, performance: 95, accessibility: 100 } as const;

export interface ScriptSize {
  url: string;
  wireBytes: number;
  gzip9Bytes: number;
}

export interface SiteBenchResult {
  url: string;
  scripts: ScriptSize[];
  /** Sum of the compressed bodies the browser received for JS (what the server sent, gzip). */
  landingJsGzipKb: number;
  /** The same files gzipped at level 9 here (a check on the server's compression). */
  landingJsGzip9Kb: number;
  lighthouse: Record<string, number | null>;
  /** Performance and accessibility audits that are not perfect: why a score is short. */
  findings: string[];
  pass: { landingJs: boolean; performance: boolean; accessibility: boolean };
}

/** JS requested while '/' loads (up to network idle), with the sizes on the wire. */
async function measureLandingJs(url: string): Promise<ScriptSize[]> {
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
          url: r.url().replace(url, '/').replace(/\/\/+/g, '/'),
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
    const url = `${runtime.url}/`;
    const scripts = await measureLandingJs(url);
    const kb = (n: number) => Math.round((n / 1024) * 100) / 100;
    const landingJsGzipKb = kb(scripts.reduce((s, x) => s + x.wireBytes, 0));
    const landingJsGzip9Kb = kb(scripts.reduce((s, x) => s + x.gzip9Bytes, 0));
    const { scores, findings } = await runLighthouse(url);
    return {
      url,
      scripts,
      landingJsGzipKb,
      landingJsGzip9Kb,
      lighthouse: scores,
      findings,
      pass: {
        landingJs: landingJsGzipKb <= TARGETS.landingJsGzipKb,
        performance: (scores.performance ?? 0) >= TARGETS.performance,
        accessibility: (scores.accessibility ?? 0) >= TARGETS.accessibility,
      },
    };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatSiteBench(r: SiteBenchResult): string {
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const lines = [
    `Site bench: ${r.url}`,
    '',
    'Landing JS (requested on load):',
    ...r.scripts.map((s) => `  ${(s.wireBytes / 1024).toFixed(2).padStart(7)} KB  ${s.url}`),
    '',
    '| Measure                         | Value     | Target   | Result |',
    '|---------------------------------|-----------|----------|--------|',
    `| Landing JS, gzip on the wire    | ${`${r.landingJsGzipKb.toFixed(1)} KB`.padEnd(9)} | ≤ ${TARGETS.landingJsGzipKb} KB  | ${ok(r.pass.landingJs).padEnd(6)} |`,
    `| (same files, gzip -9)           | ${`${r.landingJsGzip9Kb.toFixed(1)} KB`.padEnd(9)} |          |        |`,
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
      process.exit(Object.values(r.pass).every(Boolean) ? 0 : 1);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(2);
    });
}
