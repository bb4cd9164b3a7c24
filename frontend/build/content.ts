/**
 * The one Markdown pipeline: front matter with gray-matter, the body with unified (remark-parse, remark-gfm,
 * remark-rehype, rehype-stringify), both at build time. A Vite plugin serves them to the app:
 *   - `virtual:content`: every entry's front matter (the index pages' data) and, per entry, a lazy import of
 *   - `<file>.md?html`: the body as an HTML string, its own chunk, loaded when the article opens.
 * Collections and their folders come from domain/site-routes.ts; whatever files exist are picked up.
 * Facts (prices, limits, sizes, the number of styles) are placeholders filled from domain/ here, in the text and the
 * front matter (frontend/src/blog/facts.ts); an unknown one fails the build.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import matter from 'gray-matter';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import type { Plugin } from 'vite';
import { CONTENT_COLLECTIONS, type ContentCollection, slugFromFile } from '../../domain/site-routes';
import { type ContentEntry, sortEntries, titleFromSlug } from '../src/blog/content';
import { resolveFacts } from '../src/blog/facts';
import { type FigureManifest, figureHtml, figureSpec, readManifest, withFigure } from './figures';

const VIRTUAL_ID = 'virtual:content';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

interface MdNode { type: string; depth?: number; children?: MdNode[] }

/** The page's title is its h1, so body headings start at h2 (`#` becomes h2, the rest keep their level). */
function headingsFromH2() {
  return (tree: MdNode) => {
    const walk = (node: MdNode) => {
      if (node.type === 'heading' && node.depth !== undefined) node.depth = Math.max(2, node.depth);
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}

// Raw HTML in Markdown is dropped (remark-rehype's default), so the output holds only what Markdown makes.
const processor = unified().use(remarkParse).use(remarkGfm).use(headingsFromH2).use(remarkRehype).use(rehypeStringify);

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}

function text(value: unknown, file: string): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10); // YAML reads 2025-03-30 as a date
  if (typeof value === 'string' && value.trim()) return resolveFacts(value.trim(), file);
  return undefined;
}

/** A page's body as HTML, its facts filled in and its before/after figure (frontend/build/figures.ts) placed. */
export function pageHtml(file: string, manifest: FigureManifest = readManifest()): string {
  const { data, content } = matter(fs.readFileSync(file, 'utf8'));
  const body = markdownToHtml(resolveFacts(content, file));
  return withFigure(body, figureHtml(figureSpec(data, file), manifest, file));
}

export interface ContentFile { entry: ContentEntry; file: string }

/** Every entry of every collection, newest first within each. */
export function readContent(repoRoot: string): ContentFile[] {
  const out: ContentFile[] = [];
  for (const collection of Object.keys(CONTENT_COLLECTIONS) as ContentCollection[]) {
    const dir = path.join(repoRoot, CONTENT_COLLECTIONS[collection].dir);
    if (!fs.existsSync(dir)) continue;
    const files: ContentFile[] = [];
    for (const name of fs.readdirSync(dir).sort()) {
      const slug = slugFromFile(name);
      if (!slug) continue;
      const file = path.join(dir, name);
      const { data } = matter(fs.readFileSync(file, 'utf8'));
      const entry: ContentEntry = { collection, slug, title: text(data.title, file) ?? titleFromSlug(slug) };
      for (const key of ['description', 'date', 'image'] as const) {
        const v = text(data[key], file);
        if (v) entry[key] = v;
      }
      files.push({ entry, file });
    }
    const order = sortEntries(files.map((f) => ({ ...f.entry, f })));
    out.push(...order.map((o) => o.f));
  }
  return out;
}

export function contentPlugin(repoRoot: string): Plugin {
  const dirs = Object.values(CONTENT_COLLECTIONS).map((c) => path.join(repoRoot, c.dir));
  return {
    name: 'toonzap-content',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id === RESOLVED_ID) {
        for (const d of dirs) if (fs.existsSync(d)) this.addWatchFile(d);
        const content = readContent(repoRoot);
        const bodies = content.map(({ entry, file }) => `${JSON.stringify(`${entry.collection}/${entry.slug}`)}: () => import(${JSON.stringify(`${file}?html`)})`);
        return [
          `export const entries = ${JSON.stringify(content.map((c) => c.entry))};`,
          `export const bodies = {${bodies.join(',\n')}};`,
        ].join('\n');
      }
      if (id.endsWith('.md?html') || id.endsWith('.mdx?html')) {
        const file = id.slice(0, -'?html'.length);
        this.addWatchFile(file);
        return `export default ${JSON.stringify(pageHtml(file))};`;
      }
      return null;
    },
    configureServer(server) {
      // A new or removed Markdown file changes the entry list.
      server.watcher.add(dirs);
      const refresh = (file: string) => {
        if (!dirs.some((d) => file.startsWith(d))) return;
        const mod = server.moduleGraph.getModuleById(RESOLVED_ID);
        if (mod) server.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('add', refresh);
      server.watcher.on('unlink', refresh);
      server.watcher.on('change', refresh);
    },
  };
}
