import { judgeLabels, REFUSAL_REASONS, refusalReason } from '../../domain/moderation-policy';

const label = (Name: string, ParentName = '', Confidence = 90, TaxonomyLevel = ParentName ? 2 : 1) => ({
  Name,
  ParentName,
  Confidence,
  TaxonomyLevel,
});
const NEN_L1 = 'Non-Explicit Nudity of Intimate parts and Kissing';

describe('moderation policy (Rekognition taxonomy v7, v6 names too)', () => {
  test('explicit content is refused as nudity, with the labels for the operator', () => {
    const v = judgeLabels(
      [
        label('Explicit'),
        label('Explicit Nudity', 'Explicit'),
        label('Exposed Female Nipple', 'Explicit Nudity', 88, 3),
      ],
      60,
    );
    expect(v.allowed).toBe(false);
    expect(v.category).toBe('nudity');
    expect(v.reasons).toEqual([
      'Explicit: 90.0%',
      'Explicit Nudity (Explicit): 90.0%',
      'Exposed Female Nipple (Explicit Nudity): 88.0%',
    ]);
    expect(refusalReason('rejected', v.category)).toBe('looks like it may contain nudity');
  });

  test('swimwear, sportswear and a bare male chest (a footballer, a swimmer) are allowed', () => {
    expect(
      judgeLabels([label('Swimwear or Underwear'), label('Male Swimwear or Underwear', 'Swimwear or Underwear')], 60)
        .allowed,
    ).toBe(true);
    expect(
      judgeLabels(
        [
          label(NEN_L1),
          label('Non-Explicit Nudity', NEN_L1),
          label('Exposed Male Nipple', 'Non-Explicit Nudity', 90, 3),
          label('Bare Back', 'Non-Explicit Nudity', 80, 3),
        ],
        60,
      ),
    ).toEqual({ allowed: true, reasons: [], category: null });
  });

  test('a kiss is allowed; non-explicit nudity of intimate parts is refused', () => {
    expect(judgeLabels([label(NEN_L1), label('Kissing on the Lips', NEN_L1)], 60).allowed).toBe(true);
    const partial = judgeLabels(
      [
        label(NEN_L1),
        label('Non-Explicit Nudity', NEN_L1),
        label('Partially Exposed Female Breast', 'Non-Explicit Nudity', 90, 3),
      ],
      60,
    );
    expect(partial).toMatchObject({ allowed: false, category: 'nudity' });
    // An L2 with no L3 to clear it counts as nudity.
    expect(judgeLabels([label('Non-Explicit Nudity', NEN_L1)], 60).allowed).toBe(false);
    expect(judgeLabels([label('Obstructed Intimate Parts', NEN_L1)], 60).category).toBe('nudity');
  });

  test('graphic violence, disturbing content and hate symbols are refused; a weapon alone, alcohol or tobacco are not', () => {
    expect(judgeLabels([label('Violence'), label('Graphic Violence', 'Violence')], 60).category).toBe('violence');
    expect(judgeLabels([label('Violence'), label('Weapons', 'Violence')], 60).allowed).toBe(true);
    expect(
      judgeLabels([label('Visually Disturbing'), label('Death and Emaciation', 'Visually Disturbing')], 60).category,
    ).toBe('disturbing');
    expect(judgeLabels([label('Hate Symbols'), label('Nazi Party', 'Hate Symbols')], 60).category).toBe('hate');
    expect(
      judgeLabels([label('Alcohol'), label('Drugs & Tobacco'), label('Rude Gestures'), label('Gambling')], 60).allowed,
    ).toBe(true);
    // v6 top-level names
    expect(judgeLabels([label('Explicit Nudity'), label('Nudity', 'Explicit Nudity')], 60).category).toBe('nudity');
    expect(judgeLabels([label('Graphic Violence Or Gore', 'Violence')], 60).category).toBe('violence');
  });

  test('labels below the confidence threshold do not count', () => {
    expect(judgeLabels([label('Explicit', '', 59.9)], 60).allowed).toBe(true);
  });

  test('every category has a short reason in words', () => {
    for (const reason of Object.values(REFUSAL_REASONS)) expect(reason).toMatch(/^looks like it may contain /);
    expect(refusalReason('invalid', null)).toMatch(/could not be read/);
    expect(refusalReason('rejected', null)).toBe('does not meet our content rules');
  });
});
