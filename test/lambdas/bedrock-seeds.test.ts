import { GENERATIVE_PRESETS } from '../../domain/generative';
import { MAX_SEED, seedFor } from '../../lambdas/lib/bedrock';

describe('seeds of a (photo, style)', () => {
  const hash = 'a'.repeat(64);
  const preset = GENERATIVE_PRESETS['3d'];

  test("per-photo: the first try is the preview's seed; a retry after the quality gate asks for another, stable one", () => {
    const first = seedFor(preset, hash, '3d');
    expect(seedFor(preset, hash, '3d', 0)).toBe(first);
    const tries = [0, 1, 2].map((a) => seedFor(preset, hash, '3d', a));
    expect(new Set(tries).size).toBe(3);
    expect(seedFor(preset, hash, '3d', 2)).toBe(tries[2]);
    for (const s of tries) expect(s >= 1 && s <= MAX_SEED).toBe(true);
  });

  test('random: every try asks the model for random noise', () => {
    expect(seedFor({ ...preset, seed: 'random' }, hash, '3d', 1)).toBe(0);
  });
});
