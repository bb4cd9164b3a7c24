import { getStyle, isStyleId, STYLE_IDS, STYLES } from '../../domain/styles';

describe('style catalogue', () => {
  it('has the eight styles, with user-facing names', () => {
    expect(STYLE_IDS).toEqual(['3d', 'anime', 'comic', 'sketch', 'watercolor', 'pop-art', 'pixel-art', 'oil-paint']);
    for (const id of STYLE_IDS) expect(isStyleId(id)).toBe(true);
    expect(getStyle('3d')?.name).toBe('3D Animation');
    expect(getStyle('sketch')?.name).toBe('Pencil Sketch');
    expect(new Set(STYLE_IDS).size).toBe(STYLES.length);
    for (const s of STYLES) {
      expect(s.name.length).toBeGreaterThan(2);
      expect(s.description.length).toBeGreaterThan(10);
      expect(s.preview.length).toBeGreaterThan(2);
    }
  });

  it('rejects unknown ids', () => {
    expect(isStyleId('nope')).toBe(false);
    expect(isStyleId(undefined)).toBe(false);
    expect(getStyle('nope')).toBeUndefined();
  });
});
