import { MAX_FILE_BYTES, MAX_FILES } from '../../domain/upload-rules';
import { awaitsFile, loadWizard, saveWizard, withRestoredFiles } from '../../frontend/src/features/wizard/wizard-state';
import type { SelectedFile } from '../../frontend/src/features/wizard/wizard-types';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
const picked = (name: string, extra: Partial<SelectedFile> = {}): SelectedFile => ({
  id: `id-${name}`,
  name,
  key: `${name}:9:1`,
  file: new File([PNG], name, { type: 'image/png' }),
  type: 'image/png',
  size: PNG.length,
  previewUrl: `blob:${name}`,
  ...extra,
});
const uploaded = (name: string) =>
  picked(name, { file: null, hash: name.repeat(64).slice(0, 64), previewUrl: 'data:image/jpeg;base64,AAAA' });

describe('wizard state across a reload', () => {
  const store = new Map<string, string>();
  beforeAll(() => {
    Object.assign(globalThis, {
      sessionStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => store.set(k, v),
        removeItem: (k: string) => store.delete(k),
      },
    });
  });
  afterAll(() => {
    delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
  });

  /** The list as a reload of the page finds it. */
  const reloaded = (photos: SelectedFile[]) => {
    saveWizard({ photos, hashes: [], styles: [], email: '', moderation: null });
    return loadWizard().photos;
  };

  it('keeps uploaded photos with their preview and picked ones as name, type and size, in order, awaiting their file', () => {
    const photos = reloaded([picked('a.png'), uploaded('b.png'), picked('c.png')]);
    expect(JSON.stringify([...store.values()])).not.toContain('blob:');
    expect(photos.map((p) => [p.name, awaitsFile(p), p.file, p.previewUrl])).toEqual([
      ['a.png', true, null, ''],
      ['b.png', false, null, 'data:image/jpeg;base64,AAAA'],
      ['c.png', true, null, ''],
    ]);
    expect(photos[0]).toMatchObject({ id: 'id-a.png', key: 'a.png:9:1', type: 'image/png', size: PNG.length });
  });

  it('gives each awaiting photo its kept file and a fresh preview; one whose file is gone leaves the list', () => {
    const photos = reloaded([picked('a.png'), uploaded('b.png'), picked('c.png')]);
    const back = withRestoredFiles(photos, new Map([['a.png:9:1', new File([PNG], 'a.png')]]));
    expect(back.map((p) => [p.name, !!p.file, awaitsFile(p)])).toEqual([
      ['a.png', true, false],
      ['b.png', false, false],
    ]);
    expect(back[0].previewUrl).toMatch(/^blob:/);
    expect(back[1]).toBe(photos[1]);
  });

  it('holds kept files to the upload rules: type, size under the limit, at most MAX_FILES photos', () => {
    const awaiting = (name: string, type = 'image/png') => picked(name, { file: null, previewUrl: '', type });
    const files = new Map([
      ['gif.png:9:1', new File([PNG], 'gif.png')],
      ['big.png:9:1', new File([new Uint8Array(MAX_FILE_BYTES)], 'big.png')],
    ]);
    expect(withRestoredFiles([awaiting('gif.png', 'image/gif'), awaiting('big.png')], files)).toEqual([]);

    const many = Array.from({ length: MAX_FILES + 2 }, (_, i) => awaiting(`p${i}.png`));
    const all = new Map(many.map((p) => [p.key, new File([PNG], p.name)]));
    expect(withRestoredFiles(many, all).map((p) => p.name)).toEqual(many.slice(0, MAX_FILES).map((p) => p.name));
  });
});
