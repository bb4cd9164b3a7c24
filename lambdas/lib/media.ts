import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MAX_PIXELS, MAX_UPLOAD_BYTES, readImageInfo, type ImageInfo } from '../../domain/image-format';
import { s3 } from './aws';
import { settings } from './settings';

import { mediaKey } from '../../domain/wiring';

export { mediaKey };

export function presignUpload(key: string, contentType: string): Promise<string> {
  const command = new PutObjectCommand({ Bucket: settings.mediaBucket, Key: key, ContentType: contentType });
  // Content-Type is signed, so the browser must PUT exactly the type it registered.
  return getSignedUrl(s3(), command, { expiresIn: settings.uploadUrlTtlSeconds, signableHeaders: new Set(['content-type']) });
}

export function presignDownload(key: string, fileName?: string): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: settings.mediaBucket,
    Key: key,
    ResponseContentDisposition: fileName ? `inline; filename="${fileName}"` : undefined,
  });
  return getSignedUrl(s3(), command, { expiresIn: settings.imageUrlTtlSeconds });
}

export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
    return true;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as Error).name === 'NotFound' || (err as Error).name === 'NoSuchKey') return false;
    throw err;
  }
}

export async function writeObject(key: string, bytes: Buffer, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: settings.mediaBucket, Key: key, Body: bytes, ContentType: contentType }));
}

export async function readObject(key: string): Promise<Buffer | null> {
  try {
    const res = await s3().send(new GetObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch (err) {
    if ((err as Error).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw err;
  }
}

export type UploadCheck =
  | { ok: true; info: ImageInfo; bytes: Buffer }
  | { ok: false; reason: 'missing' | 'hash-mismatch' | 'too-large' | 'not-an-image' | 'too-many-pixels'; message: string };

/**
 * Checks an uploaded photo against the hash it was registered under: SHA-256 of the bytes, type from the bytes,
 * size and pixel limits. A bad object is deleted so it can never be moderated, previewed or sold.
 * (S3 emulators verify no checksums, and a browser can PUT anything to a presigned URL, so the server must.)
 */
export async function verifyUpload(hash: string): Promise<UploadCheck> {
  const key = mediaKey.upload(hash);
  const bytes = await readObject(key);
  if (!bytes) return { ok: false, reason: 'missing', message: 'Image has not been uploaded.' };
  const fail = async (reason: Exclude<UploadCheck, { ok: true }>['reason'], message: string): Promise<UploadCheck> => {
    await s3().send(new DeleteObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
    return { ok: false, reason, message };
  };
  if (createHash('sha256').update(bytes).digest('hex') !== hash) {
    return fail('hash-mismatch', 'Uploaded bytes do not match the image hash.');
  }
  if (bytes.length >= MAX_UPLOAD_BYTES) return fail('too-large', 'File size must be less than 10MB');
  const info = readImageInfo(bytes);
  if (!info) return fail('not-an-image', 'Only JPG/PNG files are allowed');
  if (info.width * info.height > MAX_PIXELS) {
    return fail('too-many-pixels', `Image is too large: ${info.width}×${info.height} pixels exceeds the ${MAX_PIXELS / 1e6} MP limit.`);
  }
  return { ok: true, info, bytes };
}
