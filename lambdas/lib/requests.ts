import { notFound } from './http';
import { getImage, type ImageRecord } from './images';

/** The image's record, or 404 when it was never registered. */
export async function knownImage(hash: string): Promise<ImageRecord> {
  const record = await getImage(hash);
  if (!record) throw notFound(`Image ${hash} not found. Upload it first.`);
  return record;
}
