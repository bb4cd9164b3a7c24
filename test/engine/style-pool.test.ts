import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import {
  closeStylePool,
  decodeInput,
  renderAllFromDecoded,
  STYLE_IDS,
  stylesRenderedByWorkers,
  warmStylePool,
} from '../../engine';
import { ENGINE_PROCESS_ENV } from '../../engine/process-env';
import { splitByCost } from '../../engine/style-pool';
import { photo } from './helpers';

const ORIGINAL_ENV = process.env.TOONZAP_ENGINE_WORKERS;

afterEach(async () => {
  await closeStylePool();
  if (ORIGINAL_ENV === undefined) delete process.env.TOONZAP_ENGINE_WORKERS;
  else process.env.TOONZAP_ENGINE_WORKERS = ORIGINAL_ENV;
});

describe('style pool', () => {
  it('splits the styles into groups that cover each style exactly once, balanced by cost', () => {
    for (const bins of [1, 2, 3, 4]) {
      const groups = splitByCost(STYLE_IDS, bins);
      expect(groups).toHaveLength(bins);
      expect(groups.flat().sort()).toEqual([...STYLE_IDS].sort());
      if (bins > 1) for (const g of groups) expect(g.length).toBeGreaterThan(0);
    }
    // two groups of 8 styles: neither holds more than 5 (the heavy ones are spread)
    for (const g of splitByCost(STYLE_IDS, 2)) expect(g.length).toBeLessThanOrEqual(5);
  });

  it('renders on a worker thread the same bytes as the calling thread', async () => {
    process.env.TOONZAP_ENGINE_WORKERS = '2';
    expect(await warmStylePool()).toBe(2);
    const img = await decodeInput(photo('chelsea.png'), { maxSize: 200 });
    const before = stylesRenderedByWorkers();
    const pooled = await renderAllFromDecoded(img);
    expect(pooled.map((t) => t.styleId)).toEqual([...STYLE_IDS]);
    expect(stylesRenderedByWorkers() - before).toBeGreaterThanOrEqual(4); // two of three groups went to workers
    process.env.TOONZAP_ENGINE_WORKERS = '0';
    await closeStylePool();
    expect(await warmStylePool()).toBe(0);
    const inline = await renderAllFromDecoded(img);
    for (let i = 0; i < STYLE_IDS.length; i++) expect(pooled[i].png.equals(inline[i].png)).toBe(true);
  });
});

describe('style pool lifetime', () => {
  it('never keeps the process alive while idle, before or after a batch', async () => {
    const held = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker').length;
    const before = held();
    process.env.TOONZAP_ENGINE_WORKERS = '1';
    expect(await warmStylePool()).toBe(1);
    expect(held()).toBe(before);
    const img = await decodeInput(photo('coffee.png'), { maxSize: 128 });
    const n = stylesRenderedByWorkers();
    await renderAllFromDecoded(img);
    expect(stylesRenderedByWorkers()).toBeGreaterThan(n);
    expect(held()).toBe(before);
  });
});

type Engine = typeof import('../../engine');

// jest-transform.cjs's Math binding: the bundle's calling-thread renders run in Jest's sandbox, where an unbound
// Math made the 16 renders of the dying-worker test take 35 s instead of 2; its workers run the files as shipped.
const { bind } = require('../support/jest-transform.cjs') as { bind: (code: string) => string };
const bundled = new Map<string, Engine>();

/**
 * The engine bundled as engine/Dockerfile does it, into `dir` (once per file run); `worker` replaces the style
 * worker's code.
 */
function bundleEngine(dir: string, worker?: string): Engine {
  const outdir = path.resolve(__dirname, '../../node_modules/.cache', dir);
  const done = bundled.get(outdir);
  if (done) return done;
  const root = path.resolve(__dirname, '../../engine');
  buildSync({
    entryPoints: [
      path.join(root, 'index.ts'),
      path.join(root, 'style-worker.ts'),
      path.join(root, 'analysis-worker.ts'),
    ],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['sharp', '@aws-sdk/*'],
    outdir,
    logLevel: 'error',
  });
  if (worker) fs.writeFileSync(path.join(outdir, 'style-worker.js'), worker);
  const index = path.join(outdir, 'index.js');
  fs.writeFileSync(index, bind(fs.readFileSync(index, 'utf8')));
  // The bundle carries its own copy of tfjs, which finds this process's platform and kernels already in tfjs's global
  // registry and says so for each: hundreds of warnings, most of CI's log. Other warnings still show.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/already (been set|registered)/.test(String(args[0]))) warn(...args);
  };
  let engine: Engine;
  try {
    engine = require(index) as Engine;
  } finally {
    console.warn = warn;
  }
  bundled.set(outdir, engine);
  return engine;
}

describe('the engine as the container ships it', () => {
  it('ships every worker the engine starts (engine/Dockerfile bundles each beside the server)', () => {
    const root = path.resolve(__dirname, '../../engine');
    const spawned = new Set<string>();
    for (const f of fs.readdirSync(root).filter((n) => n.endsWith('.ts'))) {
      for (const m of fs.readFileSync(path.join(root, f), 'utf8').matchAll(/spawnEngineWorker\('([a-z-]+)'/g))
        spawned.add(m[1]);
    }
    expect([...spawned].sort()).toEqual(['analysis-worker', 'style-worker']);
    const build =
      fs
        .readFileSync(path.join(root, 'Dockerfile'), 'utf8')
        .split('\n')
        .find((l) => l.includes('npx esbuild')) ?? '';
    for (const w of spawned) expect(build).toContain(`engine/${w}.ts`);
  });

  it("starts with the engine's process environment (engine/process-env.ts)", () => {
    const dockerfile = fs.readFileSync(path.resolve(__dirname, '../../engine/Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    for (const [k, v] of Object.entries(ENGINE_PROCESS_ENV)) expect(runtime).toMatch(new RegExp(`\\s${k}=${v}\\s`));
  });

  it('analyses in the bundled analysis worker', async () => {
    const shipped = bundleEngine('test-engine-bundle');
    try {
      const a = await shipped.analyzeImage(await shipped.decodeInput(photo('astronaut.png'), { maxSize: 256 }));
      expect(a.faces).toHaveLength(1);
    } finally {
      await shipped.closeAnalysisThread();
    }
  });

  it('bundles the server with its style worker, which the bundled pool finds and uses', async () => {
    const shipped = bundleEngine('test-engine-bundle');
    process.env.TOONZAP_ENGINE_WORKERS = '1';
    try {
      expect(await shipped.warmStylePool()).toBe(1);
      const img = await shipped.decodeInput(photo('coffee.png'), { maxSize: 160 });
      const out = await shipped.renderAllFromDecoded(img);
      expect(out.map((t) => t.styleId)).toEqual([...STYLE_IDS]);
      expect(shipped.stylesRenderedByWorkers()).toBeGreaterThan(0);
    } finally {
      await shipped.closeStylePool();
    }
  });

  it('stays alive while its workers warm up (a server awaits warmStylePool before listening)', () => {
    bundleEngine('test-engine-bundle');
    const index = path.resolve(__dirname, '../../node_modules/.cache/test-engine-bundle/index.js');
    const child = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(index)}).warmStylePool().then((n) => console.log('warm ' + n))`],
      { env: { ...process.env, TOONZAP_ENGINE_WORKERS: '1' }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stdout.trim()).toBe('warm 1');
  });

  it("renders a worker's share in the calling thread when the worker dies mid-job: same bytes, nothing missing", async () => {
    const dying = [
      "const { parentPort } = require('node:worker_threads');",
      'parentPort.postMessage({ ready: true });',
      'parentPort.on("message", () => process.exit(3)); // dies with the job in flight',
    ].join('\n');
    const shipped = bundleEngine('test-engine-bundle-dying-worker', dying);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const img = await shipped.decodeInput(photo('astronaut.png'), { maxSize: 160 });
      process.env.TOONZAP_ENGINE_WORKERS = '0';
      const inline = await shipped.renderAllFromDecoded(img);
      await shipped.closeStylePool();
      process.env.TOONZAP_ENGINE_WORKERS = '1';
      expect(await shipped.warmStylePool()).toBe(1);
      const out = await shipped.renderAllFromDecoded(img);
      expect(shipped.stylesRenderedByWorkers()).toBe(0);
      expect(out.map((t) => t.styleId)).toEqual([...STYLE_IDS]);
      for (let i = 0; i < STYLE_IDS.length; i++) expect(out[i].png.equals(inline[i].png)).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('style worker lost'));
    } finally {
      warn.mockRestore();
      await shipped.closeStylePool();
    }
  });
});
