/**
 * Where the visitor is in the wizard and what they chose, kept so that a refresh, the browser's Back button and
 * Cancel on the checkout page return to the same place: the step lives in the URL (`/?step=styles`), the choices
 * in session storage (this tab only, gone when it closes). Uploaded photos are kept as their hash plus a small
 * preview: the bytes are already stored on the server under the hash. Photos picked but not uploaded yet are kept as
 * their name, type and size; their files wait in IndexedDB (picked-files.ts) and come back with `withRestoredFiles`.
 */
import { fileProblem, MAX_FILES } from '../../../../domain/upload-rules';
import { clearPicked } from './picked-files';
import type { ModerationOutcome, SelectedFile, WizardStep } from './wizard-types';

export const STEP_NAMES: Partial<Record<WizardStep, string>> = {
  1: 'upload',
  2: 'styles',
  3: 'signup',
  4: 'order',
  6: 'thanks',
};

export function stepFromSearch(search: string): WizardStep {
  const name = new URLSearchParams(search).get('step');
  const found = Object.entries(STEP_NAMES).find(([, n]) => n === name);
  return found ? (Number(found[0]) as WizardStep) : 0;
}

export function stepPath(step: WizardStep): string {
  const name = STEP_NAMES[step];
  return name ? `/?step=${name}` : '/';
}

export interface WizardData {
  /** Picked photos: uploaded ones (hash and preview), the others with their file (or awaiting it after a reload). */
  photos: SelectedFile[];
  hashes: string[];
  styles: string[];
  email: string;
  moderation: ModerationOutcome | null;
}

export const EMPTY_WIZARD: WizardData = { photos: [], hashes: [], styles: [], email: '', moderation: null };

const KEY = 'toonzap.wizard.v1';

export function loadWizard(): WizardData {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return EMPTY_WIZARD;
    const data = JSON.parse(raw) as Partial<WizardData>;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
    const photos = Array.isArray(data.photos)
      ? data.photos
          .filter(
            (p) =>
              p &&
              typeof p.id === 'string' &&
              typeof p.key === 'string' &&
              typeof p.name === 'string' &&
              typeof p.type === 'string',
          )
          .filter((p) => (typeof p.hash === 'string' ? typeof p.previewUrl === 'string' : typeof p.size === 'number'))
          .map((p) => ({ ...p, file: null, previewUrl: p.hash ? p.previewUrl : '' }))
      : [];
    const m = data.moderation;
    const moderation =
      m && typeof m.key === 'string'
        ? { key: m.key, allowed: strings(m.allowed), refused: Array.isArray(m.refused) ? m.refused : [] }
        : null;
    return {
      photos,
      hashes: strings(data.hashes),
      styles: strings(data.styles),
      email: typeof data.email === 'string' ? data.email : '',
      moderation,
    };
  } catch {
    return EMPTY_WIZARD;
  }
}

export function saveWizard(data: WizardData): void {
  // Uploaded photos come back from their hash and a small data: URL preview; the others from their kept file, so
  // their object URL preview (dead after a reload) is not kept.
  const photos = data.photos
    .filter((p) => !p.hash || p.previewUrl.startsWith('data:'))
    .map(({ file: _file, ...rest }) => (rest.hash ? rest : { ...rest, previewUrl: '' }));
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...data, photos }));
  } catch {
    // Storage full or blocked: the wizard still works, it just does not survive a reload.
  }
}

export function clearWizard(): void {
  clearPicked();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}

/** A photo picked before a reload, not uploaded, whose file is still to come from IndexedDB. */
export function awaitsFile(p: SelectedFile): boolean {
  return !p.hash && !p.file;
}

/**
 * The list once the kept files are back: each awaiting photo gets its file and a fresh preview, or leaves the list
 * when its file is gone (or no longer passes the upload rules); never more than MAX_FILES.
 */
export function withRestoredFiles(photos: SelectedFile[], files: Map<string, File>): SelectedFile[] {
  const restored = photos.flatMap((p) => {
    if (!awaitsFile(p)) return [p];
    const file = files.get(p.key);
    if (!file || fileProblem({ type: p.type, size: file.size })) return [];
    return [{ ...p, file, size: file.size, previewUrl: URL.createObjectURL(file) }];
  });
  for (const p of restored.slice(MAX_FILES)) if (p.file) URL.revokeObjectURL(p.previewUrl);
  return restored.slice(0, MAX_FILES);
}

/** A small JPEG data: URL of the photo (longest edge `edge` px) to show again after a reload. */
export async function smallPreview(file: Blob, edge = 192): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, edge / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.72);
  } catch {
    return null;
  }
}
