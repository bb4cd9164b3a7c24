import sharp from 'sharp';
import { analyzePhoto, closeAnalysisThread, closeStylePool, renderStyle, STYLE_IDS } from '../../engine/index';
import { LIKENESS_THRESHOLD } from '../../engine/likeness';
import {
  CONTRAST_FLOOR,
  checkQuality,
  correlation,
  edgeMap,
  STRUCTURE_FLOOR,
  verdict,
} from '../../engine/quality-gate';
import { photo } from './helpers';

afterAll(async () => {
  await closeStylePool();
  await closeAnalysisThread();
});

/** `png` with each face the photo's analysis finds painted over with its box's mean colour. */
async function eraseFaces(png: Buffer): Promise<Buffer> {
  const a = await analyzePhoto(png);
  const { width = 0 } = await sharp(png).metadata();
  const k = width / a.width;
  const patches = await Promise.all(
    a.faces.map(async (f) => {
      const [left, top, w, h] = f.box.map((v) => Math.round(v * k));
      const { channels } = await sharp(png).extract({ left, top, width: w, height: h }).stats();
      const [r, g, b] = channels.map((c) => Math.round(c.mean));
      return { input: { create: { width: w, height: h, channels: 3 as const, background: { r, g, b } } }, left, top };
    }),
  );
  return sharp(png).composite(patches).png().toBuffer();
}

describe('quality gate', () => {
  const flat = (w: number, h: number, background: string) =>
    sharp({ create: { width: w, height: h, channels: 3, background } })
      .png()
      .toBuffer();

  test('edges and correlation: a step is found; identical maps correlate 1, a flat one 0', () => {
    const n = 8;
    const grey = new Uint8Array(n * n).map((_, i) => (i % n < 4 ? 0 : 200));
    const edges = edgeMap(grey, n);
    expect(edges[2 * n + 3]).toBeGreaterThan(0);
    expect(edges[2 * n + 1]).toBe(0);
    expect(correlation(edges, edges)).toBeCloseTo(1, 6);
    expect(correlation(edges, new Float32Array(n * n))).toBe(0);
  });

  test('a blank, flat or unrelated image fails with its reason; every engine style passes', async () => {
    const astronaut = photo('astronaut.png');
    const blank = await checkQuality(astronaut, await flat(512, 512, '#808080'));
    expect(blank).toMatchObject({ ok: false, contrast: 0 });
    expect(blank.ok || blank.reason).toMatch(/blank or flat/);
    // Near-uniform: a faint gradient of a few grey levels.
    const faint = await sharp(Buffer.from(new Uint8Array(64 * 64).map((_, i) => 120 + (i % 64) / 16)), {
      raw: { width: 64, height: 64, channels: 1 },
    })
      .png()
      .toBuffer();
    expect((await checkQuality(astronaut, faint)).ok).toBe(false);
    // Noise has contrast but none of the photo's structure.
    const noise = await sharp(Buffer.from(new Uint8Array(256 * 256 * 3).map(() => Math.random() * 256)), {
      raw: { width: 256, height: 256, channels: 3 },
    })
      .png()
      .toBuffer();
    const scrambled = await checkQuality(astronaut, noise);
    expect(scrambled.contrast).toBeGreaterThan(CONTRAST_FLOOR);
    expect(scrambled).toMatchObject({ ok: false });
    expect(scrambled.ok || scrambled.reason).toMatch(/structure/);

    const analysis = await analyzePhoto(astronaut); // once for the eight, as the engine server caches it
    for (const style of STYLE_IDS) {
      const q = await checkQuality(astronaut, await renderStyle(astronaut, style, { maxSize: 256, analysis }));
      expect({ style, ok: q.ok }).toEqual({ style, ok: true });
      expect(q.edgeCorrelation).toBeGreaterThan(STRUCTURE_FLOOR + 0.2);
    }
  });

  test('the verdict names the floor a failure is under', () => {
    expect(verdict({ edgeCorrelation: 0.9, contrast: 50 }).ok).toBe(true);
    expect(verdict({ edgeCorrelation: 0.1, contrast: 50 })).toMatchObject({ ok: false, check: 'structure' });
    expect(verdict({ edgeCorrelation: 0.9, contrast: CONTRAST_FLOOR - 1 })).toMatchObject({
      ok: false,
      check: 'contrast',
    });
  });

  test('the face verdict: every face at or above the likeness threshold, else the worst named', () => {
    const face = (similarity: number) => ({
      similarity,
      box: [0, 0, 10, 10] as [number, number, number, number],
      renderBox: [0, 0, 40, 40] as [number, number, number, number],
    });
    const base = { edgeCorrelation: 0.9, contrast: 50 };
    expect(verdict({ ...base, faces: [] }).ok).toBe(true);
    expect(verdict({ ...base, faces: [face(LIKENESS_THRESHOLD)] }).ok).toBe(true);
    const one = verdict({ ...base, faces: [face(0.21)] });
    expect(one).toMatchObject({ ok: false, check: 'faces' });
    expect(one.ok || one.reason).toBe(
      `The face in the photo was lost or changed: not recognisable as the same person (likeness 0.21 < ${LIKENESS_THRESHOLD}).`,
    );
    const some = verdict({ ...base, faces: [face(0.9), face(0.42), face(0.3)] });
    expect(some.ok || some.reason).toMatch(
      /^2 of the 3 faces in the photo were lost or changed.*\(likeness 0\.3 < 0\.5\)/,
    );
    // a blank image fails as blank: its faces are not what is wrong
    expect(verdict({ edgeCorrelation: 0, contrast: 0, faces: [face(0.1)] })).toMatchObject({ check: 'contrast' });
  });

  test('faces checked on the images: the photo itself passes, its face painted over fails; structure alone passes that', async () => {
    const astronaut = photo('astronaut.png');
    const big = await sharp(astronaut).resize(1024).png().toBuffer();
    const same = await checkQuality(astronaut, big, { faces: true });
    expect(same).toMatchObject({ ok: true, faces: [expect.objectContaining({ similarity: 1 })] });

    const erased = await eraseFaces(astronaut);
    const lost = await checkQuality(astronaut, erased, { faces: true });
    expect(lost).toMatchObject({ ok: false, check: 'faces' });
    expect(lost.faces![0].similarity).toBeLessThan(LIKENESS_THRESHOLD);
    expect(lost.ok || lost.reason).toMatch(/The face in the photo was lost or changed/);
    // without the face check the same image passes: the structure alone does not see a face go
    expect((await checkQuality(astronaut, erased)).ok).toBe(true);
    expect((await checkQuality(astronaut, erased)).faces).toBeUndefined();
    // a photo without people: nothing to compare, the image passes on its structure
    const coffee = photo('coffee.png');
    expect(
      await checkQuality(coffee, await renderStyle(coffee, 'comic', { maxSize: 256 }), { faces: true }),
    ).toMatchObject({
      ok: true,
      faces: [],
    });
  });
});
