/** Browser downloads: single images and zips (jszip is loaded only when a zip is requested). */
import { dedupeNames, imageFileName } from '../../../domain/download-names';

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export async function fetchBlob(url: string): Promise<Blob> {
  // The page already shows this URL in an <img> (fetched without CORS); reusing that cached copy would fail the
  // CORS check, so ask the storage again.
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  return res.blob();
}

/**
 * Downloads one image. `name` picks the file name from the blob (the status screen passes a fixed
 * .jpg name). If the blob cannot be fetched (e.g. storage without CORS) the image opens in a new tab.
 */
export async function downloadImage(url: string, name: (blob: Blob) => string): Promise<void> {
  try {
    const blob = await fetchBlob(url);
    saveBlob(blob, name(blob));
  } catch (err) {
    console.error('Download failed, opening the image instead', err);
    window.open(url, '_blank', 'noopener');
  }
}

export interface ZipEntry {
  url: string;
  styleName: string;
  imageHash: string;
}

/** Builds and saves a zip; images that fail to fetch are skipped silently. */
export async function downloadZip(entries: ZipEntry[], zipName: string): Promise<void> {
  const [{ default: JSZip }, blobs] = await Promise.all([
    import('jszip'),
    Promise.all(entries.map((e) => fetchBlob(e.url).catch(() => null))),
  ]);
  const zip = new JSZip();
  const fetched = entries.flatMap((e, i) => {
    const blob = blobs[i];
    return blob ? [{ blob, name: imageFileName(e.styleName, e.imageHash, blob.type) }] : [];
  });
  const names = dedupeNames(fetched.map((f) => f.name));
  fetched.forEach((f, i) => {
    zip.file(names[i], f.blob);
  });
  const content = await zip.generateAsync({ type: 'blob' });
  saveBlob(content, zipName);
}
