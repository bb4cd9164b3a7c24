import sharp from 'sharp';
import { renderStyle, STYLE_IDS } from '../../engine/index';
import {
  CONTRAST_FLOOR,
  checkQuality,
  correlation,
  edgeMap,
  STRUCTURE_FLOOR,
  verdict,
} from '../../engine/quality-gate';
import { photo } from '../support/runtime';

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

    for (const style of STYLE_IDS) {
      const q = await checkQuality(astronaut, await renderStyle(astronaut, style, { maxSize: 256 }));
      expect({ style, ok: q.ok }).toEqual({ style, ok: true });
      expect(q.edgeCorrelation).toBeGreaterThan(STRUCTURE_FLOOR + 0.2);
    }
  }, 120_000);

  test('the verdict names the floor a failure is under', () => {
    expect(verdict({ edgeCorrelation: 0.9, contrast: 50 }).ok).toBe(true);
    expect(verdict({ edgeCorrelation: 0.1, contrast: 50 })).toMatchObject({ ok: false });
    expect(verdict({ edgeCorrelation: 0.9, contrast: CONTRAST_FLOOR - 1 })).toMatchObject({ ok: false });
  });
});
