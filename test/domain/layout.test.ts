import { builtinModules } from 'node:module';
import { importCircles, importsOf, sourceFiles } from '../support/import-graph';

/**
 * The layering, read from the source's imports: domain/ is the ground floor (pure, shared by all), lib/ is the CDK
 * app only, handlers never reach into it, and nothing imports in a circle.
 */
const FOLDERS = ['bin', 'lib', 'lambdas', 'domain', 'engine', 'local', 'frontend/src'];
const files = sourceFiles(FOLDERS);
const edges = files.flatMap(importsOf);
const under = (folder: string) => (file: string | undefined) => !!file?.startsWith(`${folder}/`);
const show = (list: { from: string; spec: string }[]) => list.map((e) => `${e.from} -> ${e.spec}`);

describe('layout', () => {
  test('the graph is read: every relative import resolves to a file', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(show(edges.filter((e) => e.to?.endsWith('(unresolved)')))).toEqual([]);
    // the reader sees the kinds of import the rules below depend on
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'lambdas/lib/http.ts', to: 'domain/security-headers.ts' }),
    );
  });

  test('no file under lambdas/ imports lib/ (the CDK app)', () => {
    expect(show(edges.filter((e) => under('lambdas')(e.from) && under('lib')(e.to)))).toEqual([]);
  });

  test('domain/ imports only domain/, node builtins and zod', () => {
    const builtin = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const outside = edges.filter(
      (e) => under('domain')(e.from) && (e.to ? !under('domain')(e.to) : !builtin.has(e.spec) && e.spec !== 'zod'),
    );
    expect(show(outside)).toEqual([]);
  });

  test('local/ takes from lib/ only the stack it synthesizes and its per-environment config', () => {
    const allowed = new Set(['lib/toonzap-stack.ts', 'lib/config.ts']);
    expect(show(edges.filter((e) => under('local')(e.from) && under('lib')(e.to) && !allowed.has(e.to!)))).toEqual([]);
  });

  test('engine/ imports only engine/ and domain/ (it ships alone in its container)', () => {
    const outside = edges.filter(
      (e) => under('engine')(e.from) && e.to && !under('engine')(e.to) && !under('domain')(e.to),
    );
    expect(show(outside)).toEqual([]);
  });

  test('no import circle anywhere', () => {
    expect(importCircles(files)).toEqual([]);
  });
});
