import { isImageHash } from '../../domain/image-format';
import { badRequest, notFound } from './http';
import { getImage, type ImageRecord } from './images';

/** At most this many photos per request (the upload limit). */
export const MAX_HASHES = 50;

export function imageHashList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`${field} must be a non-empty list of image hashes.`);
  if (value.length > MAX_HASHES) throw badRequest(`At most ${MAX_HASHES} images per request.`);
  for (const h of value) if (!isImageHash(h)) throw badRequest(`${field} must contain SHA-256 hashes (64 lowercase hex characters).`);
  return [...new Set(value as string[])];
}

export function imageHash(value: unknown, field = 'image_hash'): string {
  if (!isImageHash(value)) throw badRequest(`${field} must be a SHA-256 hash (64 lowercase hex characters).`);
  return value;
}

/** The image's record, or 404 when it was never registered. */
export async function knownImage(hash: string): Promise<ImageRecord> {
  const record = await getImage(hash);
  if (!record) throw notFound(`Image ${hash} not found. Upload it first.`);
  return record;
}
