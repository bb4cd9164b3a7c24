/** Turns picked File objects into validated wizard selections (browser side of domain/upload-rules). */
import { detectFileType, SNIFF_BYTES, validateFiles } from '../../../domain/upload-rules';
import type { SelectedFile } from '../features/wizard/wizard-types';
import { randomId } from './random-id';

export function fileKey(f: File): string {
  return `${f.name}:${f.size}:${f.lastModified}`;
}

export async function selectFiles(
  existing: SelectedFile[],
  picked: File[],
): Promise<{ added: Array<SelectedFile & { file: File }>; message: string | null }> {
  const known = new Set(existing.map((s) => s.key));
  // The same file picked twice is ignored rather than uploaded (and charged) twice.
  const fresh = picked.filter((f) => {
    const k = fileKey(f);
    if (known.has(k)) return false;
    known.add(k);
    return true;
  });
  const candidates = await Promise.all(
    fresh.map(async (file) => {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
      } catch {
        bytes = new Uint8Array();
      }
      return { file, type: detectFileType(bytes, file.type), size: file.size };
    }),
  );
  const { accepted, message } = validateFiles(existing.length, candidates);
  const added = accepted.map((c) => ({
    // Unique across reloads too: photos kept from before a refresh keep their ids.
    id: randomId(),
    name: c.file.name,
    key: fileKey(c.file),
    file: c.file,
    type: c.type,
    size: c.size,
    previewUrl: URL.createObjectURL(c.file),
  }));
  return { added, message };
}
