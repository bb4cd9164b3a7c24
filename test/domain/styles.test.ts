import { getStyle, isStyleId, STYLE_IDS } from '../../domain/styles';

describe('style catalogue', () => {
  it('knows its own ids and nothing else', () => {
    for (const id of STYLE_IDS) expect(getStyle(id)?.id).toBe(id);
    expect(isStyleId('nope')).toBe(false);
    expect(isStyleId(undefined)).toBe(false);
    expect(getStyle('nope')).toBeUndefined();
  });
});
