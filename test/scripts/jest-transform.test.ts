/** The tests' transform binds `Math` once per module without moving a line or dropping strict mode. */
const { bind } = require('../support/jest-transform.cjs') as { bind: (code: string) => string };

describe('jest transform', () => {
  test('binds Math after the "use strict" directive, on the first line', () => {
    const code = '"use strict";\nObject.defineProperty(exports, "x", {});\nconst y = Math.max(1, 2);\n';
    const out = bind(code);
    expect(out.startsWith('"use strict";const Math = globalThis.Math;')).toBe(true);
    expect(out.split('\n')).toHaveLength(code.split('\n').length);
  });

  test('a module without the directive gets the line first, and still runs', () => {
    const out = bind('module.exports = Math.round(2.6);');
    const mod = { exports: 0 };
    new Function('module', out)(mod);
    expect(mod.exports).toBe(3);
  });

  test('the transformer Jest uses compiles TypeScript and binds Math in its output', () => {
    const { createTransformer } = require('../support/jest-transform.cjs');
    const t = createTransformer({ jsc: { parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } });
    const out = t.process('export const r: number = Math.round(2.6);', 'x.ts', { supportsStaticESM: false });
    expect(out.code).toMatch(/^"use strict";const Math = globalThis\.Math;/);
    const mod = { exports: {} as { r?: number } };
    new Function('module', 'exports', out.code)(mod, mod.exports);
    expect(mod.exports.r).toBe(3);
  });
});
