/**
 * The project's own import graph, read from the source as text: every relative import, export-from, dynamic import()
 * and require() with a literal path, resolved to a file the way TypeScript's bundler resolution does. Used by the
 * layout test to hold the layering and to find circles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../..');

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];
// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`; comments are stripped first.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

export interface ImportEdge {
  from: string;
  /** The specifier as written. */
  spec: string;
  /** Repo-relative file it resolves to, or undefined for a package. */
  to?: string;
  /** A type-only import does not run, but it still ties the two files together. */
  typeOnly: boolean;
}

/** All source files under the given repo-relative folders, tests and fixtures left out. */
export function sourceFiles(folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !/\.(test|d)\.tsx?$/.test(name)) out.push(relative(repoRoot, path));
    }
  };
  for (const folder of folders) walk(join(repoRoot, folder));
  return out.sort();
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function resolveFile(fromFile: string, spec: string): string | undefined {
  const base = resolve(repoRoot, dirname(fromFile), spec);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return hit && relative(repoRoot, hit);
}

export function importsOf(file: string): ImportEdge[] {
  const text = stripComments(readFileSync(join(repoRoot, file), 'utf8'));
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[2];
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    const typeOnly = /^\s*(import|export)\s+type\b/.test(text.slice(lineStart, match.index + match[0].length));
    const to = spec.startsWith('.') ? (resolveFile(file, spec) ?? `${spec} (unresolved)`) : undefined;
    edges.push({ from: file, spec, to, typeOnly });
  }
  return edges;
}

/** Every circle of imports among the files (Tarjan's strongly connected components of two or more files, or a
 *  file importing itself). */
export function importCircles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).flatMap((e) => (e.to && e.to !== e.from ? [e.to] : []))]));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return circles;
}
