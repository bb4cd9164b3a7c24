import {
  dedupeNames,
  extensionFor,
  generationZipName,
  groupZipName,
  imageFileName,
  shortHash,
  statusImageFileName,
} from '../../domain/download-names';

const HASH = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';

describe('download names', () => {
  it('uses style name with underscores plus the first 8 characters of the hash', () => {
    expect(shortHash(HASH)).toBe('abcdef01');
    expect(imageFileName('Pixar 3D', HASH, 'image/png')).toBe('Pixar_3D_abcdef01.png');
    expect(imageFileName('Pop  Art', HASH, 'image/jpeg')).toBe('Pop__Art_abcdef01.jpg');
  });

  it('uses png only for PNG blobs, jpg otherwise', () => {
    expect(extensionFor('image/png')).toBe('png');
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('image/webp')).toBe('jpg');
    expect(extensionFor('')).toBe('jpg');
    expect(extensionFor(undefined)).toBe('jpg');
  });

  it('always uses jpg for the status screen single download', () => {
    expect(statusImageFileName('Anime', HASH)).toBe('Anime_abcdef01.jpg');
  });

  it('names zips with the brand prefix', () => {
    expect(groupZipName('ToonZap', HASH)).toBe('ToonZap_abcdef01.zip');
    expect(generationZipName('ToonZap', 'gen-42')).toBe('ToonZap_gen-42.zip');
  });

  it('strips characters file systems reject', () => {
    expect(imageFileName('A/B: "C"', HASH, 'image/png')).toBe('AB_C_abcdef01.png');
  });

  it('keeps names inside one zip unique', () => {
    expect(dedupeNames(['a.png', 'b.jpg', 'a.png', 'a.png', 'noext', 'noext'])).toEqual([
      'a.png',
      'b.jpg',
      'a_2.png',
      'a_3.png',
      'noext',
      'noext_2',
    ]);
  });
});
