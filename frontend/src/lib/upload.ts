/** Uploads the selected photos: hash in the browser, register with the API, PUT to storage if asked. */
import { putToStorage, registerUpload } from './api';
import { sha256Hex } from './hash';

/** A photo to upload, or one already uploaded (restored after a reload) that only needs its hash back. */
export type UploadItem = { file: Blob; type: string } | { hash: string };

export async function uploadOne(item: UploadItem): Promise<string> {
  if ('hash' in item) return item.hash;
  const hash = await sha256Hex(await item.file.arrayBuffer());
  const registered = await registerUpload(hash, item.type, item.file.size);
  if (registered.status === 'upload') {
    await putToStorage(registered.url.url, item.file, item.type, hash);
  }
  return hash;
}

/**
 * Uploads all items with limited concurrency and returns their hashes in input order. The first
 * failure aborts the batch (no new uploads start) and rejects with its message.
 */
export async function uploadAll<T extends UploadItem>(
  items: T[],
  onProgress: (done: number) => void,
  upload: (item: T) => Promise<string> = uploadOne,
  concurrency = 4,
): Promise<string[]> {
  const hashes: string[] = new Array(items.length);
  let next = 0;
  let done = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        hashes[i] = await upload(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return hashes;
}
