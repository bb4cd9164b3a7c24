import { useCallback, useEffect, useRef, useState } from 'react';
import { keepPicked, restorePicked, sweepPicked } from './picked-files';
import {
  awaitsFile,
  clearWizard,
  EMPTY_WIZARD,
  loadWizard,
  saveWizard,
  smallPreview,
  type WizardData,
  withRestoredFiles,
} from './wizard-state';
import type { SelectedFile } from './wizard-types';

/**
 * The wizard's choices (photos, styles, e-mail, moderation outcome) and what changes them. They live in session
 * storage and the picked files in IndexedDB (wizard-state.ts, picked-files.ts), so a reload of the tab keeps them.
 */
export function useWizardData() {
  // The choices live in session storage, so they outlive a reload of this tab.
  const [data, setData] = useState<WizardData>(loadWizard);
  useEffect(() => saveWizard(data), [data]);

  // Photos picked but not uploaded before a reload: their files come back from IndexedDB.
  const [restoring, setRestoring] = useState(() => data.photos.some(awaitsFile));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the list the page was loaded with
  useEffect(() => {
    if (!restoring) return;
    let live = true;
    void restorePicked(data.photos.filter(awaitsFile).map((p) => p.key)).then((found) => {
      if (!live) return;
      setData((d) => ({ ...d, photos: withRestoredFiles(d.photos, found) }));
      setRestoring(false);
    });
    return () => {
      live = false;
    };
  }, [restoring]);
  // Every change of the list (picked, removed, cleared, uploaded) is mirrored there; closed tabs' files are swept.
  useEffect(() => {
    if (!restoring) keepPicked(data.photos);
  }, [data.photos, restoring]);
  useEffect(() => void sweepPicked(), []);
  const update = useCallback((patch: Partial<WizardData>) => setData((d) => ({ ...d, ...patch })), []);
  const setFiles = useCallback(
    (change: (prev: SelectedFile[]) => SelectedFile[]) => setData((d) => ({ ...d, photos: change(d.photos) })),
    [],
  );

  // Object URLs of the previews are released when the page goes away.
  const filesRef = useRef(data.photos);
  filesRef.current = data.photos;
  useEffect(
    () => () => {
      for (const f of filesRef.current) if (f.file) URL.revokeObjectURL(f.previewUrl);
    },
    [],
  );

  /** Forgets every choice (the visitor starts again). */
  const clear = useCallback(() => {
    for (const f of filesRef.current) if (f.file) URL.revokeObjectURL(f.previewUrl);
    clearWizard();
    setData(EMPTY_WIZARD);
  }, []);

  /** Uploaded: remember each photo's hash and a small preview that survives a reload. */
  const onUploaded = useCallback(
    async (uploaded: string[]) => {
      const current = filesRef.current;
      const photos = await Promise.all(
        current.map(async (f, i) => {
          const hash = uploaded[i];
          if (!f.file || f.previewUrl.startsWith('data:')) return { ...f, hash };
          const preview = await smallPreview(f.file);
          if (!preview) return { ...f, hash };
          URL.revokeObjectURL(f.previewUrl);
          return { ...f, hash, previewUrl: preview };
        }),
      );
      update({ photos, hashes: uploaded });
    },
    [update],
  );

  /** Removes a photo (a refused one, from the style step) without scanning the others again. */
  const removePhoto = useCallback((hash: string) => {
    setData((d) => {
      const rest = d.hashes.filter((h) => h !== hash);
      const m = d.moderation;
      return {
        ...d,
        photos: d.photos.filter((p) => p.hash !== hash),
        hashes: rest,
        moderation:
          m && m.key === d.hashes.join(',')
            ? {
                key: rest.join(','),
                allowed: m.allowed.filter((h) => h !== hash),
                refused: m.refused.filter((r) => r.hash !== hash),
              }
            : m,
      };
    });
  }, []);

  return { data, restoring, update, setFiles, clear, onUploaded, removePhoto };
}
