import { GENERATIVE_PRESETS, STYLE_PRESETS, validateGenerativeStyles } from '../../domain/generative';
import { isStyleId } from '../../domain/styles';
import { controlStructureBody } from '../../lambdas/lib/bedrock';

/** The Control Structure body asks for the look by name where the model has a preset for it. */
describe('Control Structure body: style_preset', () => {
  const image = Buffer.from('png');

  test('each preset sends its documented style_preset, or none where the model has no such look', () => {
    const sent = Object.fromEntries(
      Object.entries(GENERATIVE_PRESETS).map(([id, s]) => [id, controlStructureBody(s, image, 1).style_preset ?? null]),
    );
    expect(sent).toEqual({
      '3d': '3d-model',
      anime: 'anime',
      comic: 'comic-book',
      sketch: 'line-art',
      watercolor: null,
      'pop-art': null,
      'pixel-art': 'pixel-art',
      'oil-paint': null,
    });
    for (const v of Object.values(sent)) if (v) expect(STYLE_PRESETS).toContain(v);
    expect('style_preset' in controlStructureBody(GENERATIVE_PRESETS.watercolor, image, 1)).toBe(false);
  });

  test('configured settings keep a known preset and refuse an unknown one, naming the field', () => {
    const anime = { ...GENERATIVE_PRESETS.anime, stylePreset: 'comic-book' };
    expect(validateGenerativeStyles({ anime }, isStyleId).anime?.stylePreset).toBe('comic-book');
    const { stylePreset: _, ...none } = GENERATIVE_PRESETS.anime;
    expect(validateGenerativeStyles({ anime: none }, isStyleId).anime).not.toHaveProperty('stylePreset');
    expect(() => validateGenerativeStyles({ anime: { ...anime, stylePreset: 'manga' } }, isStyleId)).toThrow(
      /generative style anime: stylePreset must be one of 3d-model, /,
    );
  });
});
