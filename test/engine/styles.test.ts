import { getStyle, isStyleId, STYLE_IDS, STYLES } from '../../engine/styles';

describe('style catalogue', () => {
  it('has at least eight styles including the required ids, with user-facing names', () => {
    expect(STYLES.length).toBeGreaterThanOrEqual(8);
    for (const id of ['3d', 'anime', 'comic', 'sketch', 'watercolor', 'pop-art', 'pixel-art']) {
      expect(isStyleId(id)).toBe(true);
    }
    expect(getStyle('3d')?.name).toBe('3D Animation');
    expect(getStyle('sketch')?.name).toBe('Pencil Sketch');
    expect(getStyle('3d')?.generative).toBe(true);
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
