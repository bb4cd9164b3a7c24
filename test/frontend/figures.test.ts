/**
 * Every article and guide carries a before/after figure with alt text, sized for the page, and the committed figures
 * (frontend/public/figures, frontend/build/figures.json) are what the engine draws today: `npm run figures` updates
 * them. The pages and renders come from frontend/scripts/figures.ts --print in a plain Node process (tsx), as the
 * golden test runs the engine.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { FIGURE_LONG_SIDE, FIGURE_SMALL_LONG_SIDE } from '../../frontend/build/figures';

const ROOT = path.resolve(__dirname, '../..');
const MANIFEST = path.join(ROOT, 'frontend/build/figures.json');
const PUBLIC = path.join(ROOT, 'frontend/public/figures');
const CONTENT_DIRS = ['frontend/src/blog/posts', 'frontend/src/guides'];

interface Printed {
  pages: { file: string; spec: { photo: string; style: string } }[];
  renders: Record<string, string>;
  html: Record<string, string>;
}

interface FigureFile {
  file: string;
  width: number;
  height: number;
}
type FigureImage = FigureFile & { small: FigureFile };
interface FigureRecord {
  before: FigureImage;
  after: FigureImage;
  renderSha256: string;
}

let printed: Printed;
const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, FigureRecord>;

beforeAll(() => {
  const out = execFileSync(process.execPath, [require.resolve('tsx/cli'), 'frontend/scripts/figures.ts', '--print'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TOONZAP_ENGINE_WORKERS: '0' },
    maxBuffer: 1 << 28,
  });
  printed = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Printed;
});

const IMG = /<img\b[^>]*>/g;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

it('gives every Markdown page a figure', () => {
  const files = CONTENT_DIRS.flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${d}/${f}`),
  );
  expect(files.length).toBeGreaterThanOrEqual(55);
  expect(printed.pages.map((p) => p.file).sort()).toEqual(files.sort());
});

it('shows in every page a figure of two images with alt text, size and lazy loading, and a caption', () => {
  const bad: string[] = [];
  for (const [file, html] of Object.entries(printed.html)) {
    const figure = /<figure class="article-figure"[^>]*>([\s\S]*?)<\/figure>/.exec(html)?.[1];
    if (!figure) {
      bad.push(`${file}: no figure`);
      continue;
    }
    const imgs = figure.match(IMG) ?? [];
    if (imgs.length !== 2) bad.push(`${file}: ${imgs.length} images`);
    for (const tag of imgs) {
      const src = attr(tag, 'src') ?? '';
      if (!(attr(tag, 'alt') ?? '').trim()) bad.push(`${file}: ${src} has no alt text`);
      if (!(Number(attr(tag, 'width')) > 0 && Number(attr(tag, 'height')) > 0)) bad.push(`${file}: ${src} has no size`);
      if (attr(tag, 'loading') !== 'lazy') bad.push(`${file}: ${src} is not lazy`);
      // Phones pick the smaller copy: a srcset of both widths and the width the image shows at.
      const srcset = (attr(tag, 'srcset') ?? '').split(', ').map((c) => c.split(' '));
      if (srcset.length !== 2 || srcset[1]?.[0] !== src || !attr(tag, 'sizes'))
        bad.push(`${file}: ${src} has no srcset of two widths and sizes`);
      for (const url of [src, ...srcset.map(([u]) => u ?? '')]) {
        if (!url.startsWith('/figures/') || !fs.existsSync(path.join(PUBLIC, path.basename(url))))
          bad.push(`${file}: ${url} is not in frontend/public/figures`);
      }
    }
    if (!/<figcaption>[^<]{20,}<\/figcaption>/.test(figure)) bad.push(`${file}: no caption`);
  }
  expect(bad).toEqual([]);
});

it('has committed figures that are what the engine draws now (npm run figures updates them)', () => {
  const stale = Object.entries(printed.renders)
    .filter(([key, sha]) => manifest[key]?.renderSha256 !== sha)
    .map(([key]) => key);
  expect(stale).toEqual([]);
  // nothing kept that no page shows
  expect(Object.keys(manifest).sort()).toEqual(Object.keys(printed.renders).sort());
});

it('keeps each figure image a small WebP of the size the manifest says', async () => {
  const bad: string[] = [];
  for (const [key, r] of Object.entries(manifest)) {
    for (const img of [r.before, r.after, r.before.small, r.after.small]) {
      const bytes = fs.readFileSync(path.join(PUBLIC, img.file));
      if (bytes.length > 80 * 1024) bad.push(`${key}: ${img.file} is ${bytes.length} bytes`);
      const meta = await sharp(bytes).metadata();
      if (meta.format !== 'webp' || meta.width !== img.width || meta.height !== img.height)
        bad.push(
          `${key}: ${img.file} is ${meta.format} ${meta.width}×${meta.height}, not webp ${img.width}×${img.height}`,
        );
      if (Math.max(img.width, img.height) > FIGURE_LONG_SIDE)
        bad.push(`${key}: ${img.file} is larger than the column needs`);
    }
    for (const img of [r.before, r.after])
      if (Math.max(img.small.width, img.small.height) > FIGURE_SMALL_LONG_SIDE || img.small.width >= img.width)
        bad.push(`${key}: ${img.small.file} is not a smaller copy of ${img.file} for phones`);
  }
  expect(bad).toEqual([]);
  // no orphan files beside the ones the manifest names
  const named = new Set(
    Object.values(manifest).flatMap((r) => [r.before.file, r.after.file, r.before.small.file, r.after.small.file]),
  );
  expect(fs.readdirSync(PUBLIC).filter((f) => !named.has(f))).toEqual([]);
});
