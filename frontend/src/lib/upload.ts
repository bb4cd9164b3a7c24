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
 * failure aborts the batch (no new uploads start) and rejects with its message. The first photo that needs the
 * server goes alone: its registration gives the browser its owner secret (a cookie), which the others must carry,
 * or each would be registered to a secret of its own and all but the last cookie's photos lost to the page.
 */
export async function uploadAll<T extends UploadItem>(
  items: T[],
  onProgress: (done: number) => void,
  upload: (item: T) => Promise<string> = uploadOne,
  concurrency = 4,
): Promise<string[]> {
  const hashes: string[] = new Array(items.length);
  let done = 0;
  let failed = false;
  const first = items.findIndex((item) => !('hash' in item));
  if (first >= 0) {
    hashes[first] = await upload(items[first]);
    onProgress(++done);
  }
  const rest = items.map((_, i) => i).filter((i) => i !== first);
  let next = 0;
  const worker = async () => {
    while (!failed && next < rest.length) {
      const i = rest[next++];
      try {
        hashes[i] = await upload(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rest.length) }, worker));
  return hashes;
}
