import type { ModerationVerdict } from '../../lambdas/lib/images';

/**
 * Engine previews rendered during moderation (lambdas/lib/early-previews.ts): computed before the verdict, recorded
 * (so shown) only after an 'allowed' one, deleted otherwise. The stores and the engine are stand-ins recording the
 * order of events; the integration test (test/integration/jobs.test.ts) runs the same path through the runtime.
 */
const events: string[] = [];
let finishRender: (styles: string[]) => void = () => {};
let failRender: (err: Error) => void = () => {};
let stillBound = true;

jest.mock('../../lambdas/lib/images', () => ({
  getImage: jest.fn(async () => ({ image_hash: 'h' })),
  recordPreviews: jest.fn(async (_hash: string, outcome: { made: Record<string, string> }) => {
    events.push(`record ${Object.keys(outcome.made).join(',')}`);
  }),
}));
jest.mock('../../lambdas/lib/media', () => ({
  mediaKey: jest.requireActual('../../domain/wiring').mediaKey,
  deleteObject: jest.fn(async (key: string) => {
    events.push(`delete ${key}`);
  }),
}));
jest.mock('../../lambdas/lib/moderation', () => ({
  allowedUpload: jest.fn(async () => {
    events.push('binding checked');
    return stillBound ? { ok: true, record: {} } : { ok: false, reason: 'changed' };
  }),
}));
jest.mock('../../lambdas/lib/previews', () => ({
  isEngineStyle: (s: string) => s !== '3d',
  renderEnginePreviews: jest.fn(
    (_hash: string, styles: string[]) =>
      new Promise<string[]>((resolve, reject) => {
        events.push(`render ${styles.join(',')}`);
        finishRender = (made) => {
          events.push('rendered');
          resolve(made);
        };
        failRender = reject;
      }),
  ),
}));
jest.mock('../../lambdas/lib/renderer', () => ({
  pendingPreviews: (_image: unknown, styles: string[]) => styles.filter((s) => ['comic', 'sketch', '3d'].includes(s)),
  rendererFor: (s: string) => ({ kind: s === '3d' ? 'bedrock' : 'engine', id: s === '3d' ? 'bedrock:m' : 'engine' }),
}));

import { previewsDuringModeration } from '../../lambdas/lib/early-previews';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('previews during moderation', () => {
  beforeEach(() => {
    events.length = 0;
    stillBound = true;
  });

  test('renders before the verdict, records only after an allowed one', async () => {
    const verdict = deferred<ModerationVerdict | null>();
    const run = previewsDuringModeration('h', verdict.promise);
    await tick();
    expect(events).toEqual(['render comic,sketch']); // started without waiting for the verdict, engine styles only
    finishRender(['comic', 'sketch']);
    await tick();
    expect(events).toEqual(['render comic,sketch', 'rendered']); // ready, but not shown
    verdict.resolve('allowed');
    expect(await run).toEqual(['comic', 'sketch']);
    expect(events).toEqual(['render comic,sketch', 'rendered', 'binding checked', 'record comic,sketch']);
  });

  test.each<ModerationVerdict | null>(['rejected', 'invalid', null])(
    'a photo %s never has them recorded, and every one is deleted',
    async (v) => {
      const verdict = deferred<ModerationVerdict | null>();
      const run = previewsDuringModeration('h', verdict.promise);
      await tick();
      verdict.resolve(v);
      await tick();
      expect(events).toEqual(['render comic,sketch']); // waits for the render, which may still write them
      finishRender(['comic']);
      expect(await run).toEqual([]);
      expect(events).toEqual([
        'render comic,sketch',
        'rendered',
        'delete previews/h/comic.png',
        'delete previews/h/sketch.png',
      ]);
    },
  );

  test('a verdict that failed counts as none: the render is waited for and every one deleted', async () => {
    const verdict = deferred<ModerationVerdict | null>();
    const run = previewsDuringModeration(
      'h',
      verdict.promise.then(() => Promise.reject(new Error('throttled'))),
    );
    await tick();
    verdict.resolve('allowed');
    await tick();
    expect(events).toEqual(['render comic,sketch']);
    finishRender(['comic', 'sketch']);
    expect(await run).toEqual([]);
    expect(events).toEqual([
      'render comic,sketch',
      'rendered',
      'delete previews/h/comic.png',
      'delete previews/h/sketch.png',
    ]);
  });

  test('an allowed photo whose object changed after the verdict has them deleted', async () => {
    stillBound = false;
    const run = previewsDuringModeration('h', Promise.resolve('allowed'));
    await tick();
    finishRender(['comic', 'sketch']);
    expect(await run).toEqual([]);
    expect(events.filter((e) => e.startsWith('record'))).toEqual([]);
    expect(events.filter((e) => e.startsWith('delete'))).toHaveLength(2);
  });

  test('a render that fails leaves the previews job to make them', async () => {
    const run = previewsDuringModeration('h', Promise.resolve('allowed'));
    await tick();
    failRender(new Error('engine busy'));
    expect(await run).toEqual([]);
    expect(events.filter((e) => e.startsWith('record') || e.startsWith('delete'))).toEqual([]);
  });
});
