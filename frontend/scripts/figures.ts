/**
 * Renders the articles' and guides' before/after figures (frontend/build/figures.ts) with the engine:
 *   npm run figures            render each (photo, style) the pages name once, write frontend/public/figures/*.webp
 *                              (named by content hash) and frontend/build/figures.json; remove figures no page uses
 *   tsx frontend/scripts/figures.ts --print   write nothing; print JSON of every page's figure and body HTML and the
 *                              SHA-256 of each render (what test/frontend/figures.test.ts compares with figures.json)
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import sharp from 'sharp';
import { type Analysis, analyzePhoto, closeAnalysisThread, closeStylePool, renderStyle } from '../../engine/index';
import { pageHtml, readContent } from '../build/content';
import { ENGINE_SAMPLE } from '../src/features/wizard/landing-sample';
import {
  FIGURE_LONG_SIDE,
  FIGURE_MANIFEST,
  FIGURE_PHOTO_DIR,
  FIGURE_PUBLIC_DIR,
  FIGURE_SMALL_LONG_SIDE,
  type FigureImage,
  type FigureManifest,
  type FigureRecord,
  type FigureSpec,
  figureKey,
  figureSpec,
} from '../build/figures';

const REPO_ROOT = path.resolve(__dirname, '../..');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const stem = (photo: string) => photo.replace(/\.[a-z]+$/, '').replace(/_/g, '-');

/** WebP at a quality that keeps the styles' edges clean in a few tens of KB. */
const webp = (s: sharp.Sharp) => s.webp({ quality: 78, effort: 6 }).toBuffer();

interface Rendered {
  record: FigureRecord;
  files: Map<string, Buffer>;
}

/** Each photo's analysis, once for all its figures (what renderStyle would compute for each: the same bytes). */
const analyses = new Map<string, Promise<Analysis>>();
function analysisOf(name: string, photo: Buffer): Promise<Analysis> {
  let a = analyses.get(name);
  if (!a) {
    a = analyzePhoto(photo);
    analyses.set(name, a);
  }
  return a;
}

/** A figure's render and its SHA-256; with `files`, its WebP images too (--print needs only the hash). */
async function render(spec: FigureSpec, withFiles: boolean): Promise<Rendered> {
  const photo = fs.readFileSync(path.join(FIGURE_PHOTO_DIR, spec.photo));
  const analysis = await analysisOf(spec.photo, photo);
  const png = await renderStyle(photo, spec.style, { maxSize: FIGURE_LONG_SIDE, analysis });
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const files = new Map<string, Buffer>();
  const renderSha256 = sha256(data);
  if (!withFiles) {
    const none = { file: '', width, height, small: { file: '', width: 0, height: 0 } };
    return { record: { before: none, after: none, renderSha256 }, files };
  }
  // The image at the figure's size (`source`, width × height) and a smaller copy of it, each named by its content's hash.
  async function image(source: () => sharp.Sharp, name: string): Promise<FigureImage> {
    const scale = Math.min(1, FIGURE_SMALL_LONG_SIDE / Math.max(width, height));
    const small = { width: Math.round(width * scale), height: Math.round(height * scale) };
    const full = await webp(source());
    const reduced = await webp(sharp(await source().png().toBuffer()).resize(small.width, small.height, { kernel: 'lanczos3' }));
    const fullFile = `${name}-${sha256(full).slice(0, 10)}.webp`;
    const smallFile = `${name}-${small.width}-${sha256(reduced).slice(0, 10)}.webp`;
    files.set(fullFile, full).set(smallFile, reduced);
    return { file: fullFile, width, height, small: { file: smallFile, ...small } };
  }
  const before = await image(
    () => sharp(photo).removeAlpha().resize(width, height, { fit: 'fill', kernel: 'lanczos3' }),
    stem(spec.photo),
  );
  const after = await image(() => sharp(png), `${stem(spec.photo)}-${spec.style}`);
  return { record: { before, after, renderSha256 }, files };
}

/** Every page's figure, and the distinct figures in a stable order. */
function pages(): { file: string; spec: FigureSpec }[] {
  return readContent(REPO_ROOT).map(({ file }) => ({
    file: path.relative(REPO_ROOT, file),
    spec: figureSpec(matter(fs.readFileSync(file, 'utf8')).data, file),
  }));
}

async function main(): Promise<void> {
  const all = pages();
  // The landing's engine sample (frontend/src/features/wizard/landing-sample.ts) is a figure too.
  const specs = [...new Map([...all.map((p) => p.spec), ENGINE_SAMPLE].map((s) => [figureKey(s), s])).values()].sort((a, b) =>
    figureKey(a).localeCompare(figureKey(b)),
  );
  const print = process.argv.includes('--print');
  const rendered = new Map<string, Rendered>();
  for (const spec of specs) rendered.set(figureKey(spec), await render(spec, !print));
  const manifest: FigureManifest = Object.fromEntries([...rendered].map(([k, r]) => [k, r.record]));

  if (print) {
    const renders = Object.fromEntries([...rendered].map(([k, r]) => [k, r.record.renderSha256]));
    const html = Object.fromEntries(all.map((p) => [p.file, pageHtml(path.join(REPO_ROOT, p.file))]));
    process.stdout.write(`${JSON.stringify({ pages: all, renders, html })}\n`);
    return;
  }

  fs.mkdirSync(FIGURE_PUBLIC_DIR, { recursive: true });
  const keep = new Set<string>();
  for (const [key, r] of rendered) {
    for (const [name, bytes] of r.files) {
      fs.writeFileSync(path.join(FIGURE_PUBLIC_DIR, name), bytes);
      keep.add(name);
    }
    console.log(
      `${key}: ${r.record.after.width}×${r.record.after.height}, after ${(r.files.get(r.record.after.file)?.length ?? 0) / 1024 | 0} KB`,
    );
  }
  for (const name of fs.readdirSync(FIGURE_PUBLIC_DIR)) if (!keep.has(name)) fs.rmSync(path.join(FIGURE_PUBLIC_DIR, name));
  fs.writeFileSync(FIGURE_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${specs.length} figures for ${all.length} pages in ${path.relative(REPO_ROOT, FIGURE_PUBLIC_DIR)}`);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => Promise.all([closeStylePool(), closeAnalysisThread()]));
