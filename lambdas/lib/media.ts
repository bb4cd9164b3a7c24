import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type ImageInfo, MAX_PIXELS, MAX_UPLOAD_BYTES, readImageInfo } from '../../domain/image-format';
import { mediaKey } from '../../domain/wiring';
import { s3 } from './aws';
import { settings } from './settings';

export { mediaKey };

/** The SHA-256 checksum S3 keeps for an object (x-amz-checksum-sha256): the image hash, base64. */
export const hashChecksum = (hash: string) => Buffer.from(hash, 'hex').toString('base64');

/** Headers a presigned upload signs; the browser must send each exactly (Content-Length it sets from the file itself). */
export const SIGNED_UPLOAD_HEADERS = [
  'content-type',
  'content-length',
  'x-amz-checksum-sha256',
  'if-none-match',
] as const;

/**
 * A short-lived PUT URL that only accepts the registered bytes: S3 checks the signed SHA-256 checksum (the hash)
 * and length, and the conditional write (If-None-Match: *) makes the key write-once, so an object that was judged
 * can never be replaced through it. The checksum stays a header (not hoisted into the query) so it is signed and
 * S3 verifies the body against it.
 */
export function presignUpload(key: string, contentType: string, size: number, hash: string): Promise<string> {
  const command = new PutObjectCommand({
    Bucket: settings.mediaBucket,
    Key: key,
    ContentType: contentType,
    ContentLength: size,
    ChecksumSHA256: hashChecksum(hash),
    IfNoneMatch: '*',
  });
  return getSignedUrl(s3(), command, {
    expiresIn: settings.uploadUrlTtlSeconds,
    signableHeaders: new Set(SIGNED_UPLOAD_HEADERS),
    unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
  });
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
  return (await headObject(key)) !== null;
}

/** What identifies one stored version of an upload: a verdict is bound to it, and every use checks it first. */
export interface ObjectBinding {
  etag: string;
  size: number;
}

/** HEAD of an object: its ETag, length and (where S3 keeps one) SHA-256 checksum, or null when it is missing. */
export async function headObject(key: string): Promise<(ObjectBinding & { checksumSha256?: string }) | null> {
  try {
    const res = await s3().send(
      new HeadObjectCommand({ Bucket: settings.mediaBucket, Key: key, ChecksumMode: 'ENABLED' }),
    );
    return { etag: res.ETag ?? '', size: res.ContentLength ?? 0, checksumSha256: res.ChecksumSHA256 };
  } catch (err) {
    if (await isMissingKey(err, key)) return null;
    throw err;
  }
}

export async function writeObject(key: string, bytes: Buffer, contentType: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({ Bucket: settings.mediaBucket, Key: key, Body: bytes, ContentType: contentType }),
  );
}

/** An object's bytes, or null when it is missing. Never reads one of MAX_UPLOAD_BYTES or more into memory. */
export async function readObject(key: string): Promise<Buffer | null> {
  try {
    const res = await s3().send(new GetObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
    if ((res.ContentLength ?? 0) >= MAX_UPLOAD_BYTES) {
      (res.Body as { destroy?: () => void } | undefined)?.destroy?.();
      throw new Error(`${key} is too large to read (${res.ContentLength} bytes)`);
    }
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch (err) {
    if (await isMissingKey(err, key)) return null;
    throw err;
  }
}

/** Copies an object within the media bucket (S3 computes the copy's SHA-256 checksum, as an upload's). */
export async function copyObject(from: string, to: string): Promise<void> {
  await s3().send(
    new CopyObjectCommand({
      Bucket: settings.mediaBucket,
      Key: to,
      CopySource: `${settings.mediaBucket}/${from}`,
      ChecksumAlgorithm: 'SHA256',
    }),
  );
}

export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
}

/**
 * Whether a failed GET or HEAD of `key` says the object is missing. S3 answers a missing key 404 only to a caller
 * who may list the bucket; the functions may list only under their own prefixes (lib/storage.ts grantMedia), so S3
 * answers them 403. A listing of that one key, which their grant allows, tells a missing object from a refusal.
 */
async function isMissingKey(err: unknown, key: string): Promise<boolean> {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === 404 || ['NotFound', 'NoSuchKey'].includes((err as Error).name)) return true;
  if (status !== 403) return false;
  const listed = await s3().send(new ListObjectsV2Command({ Bucket: settings.mediaBucket, Prefix: key, MaxKeys: 1 }));
  // The key itself sorts first among the keys it prefixes.
  return listed.Contents?.[0]?.Key !== key;
}

export type BindingCheck = { ok: true; binding: ObjectBinding } | { ok: false; message: string };

/**
 * Is the stored upload still the object a verdict was made on? One HEAD: same ETag, same length, under the size
 * limit, and, where S3 reports a SHA-256 checksum, the hash itself. S3 emulators enforce neither checksums nor
 * conditional writes, so this is what keeps swapped bytes out. A mismatching object is deleted.
 */
export async function checkBinding(hash: string, bound: ObjectBinding): Promise<BindingCheck> {
  const key = mediaKey.upload(hash);
  const holds = await bindingHolds(hash, bound);
  if (holds === 'missing') return { ok: false, message: 'The uploaded photo is no longer stored.' };
  if (holds) return { ok: true, binding: bound };
  await deleteObject(key);
  return { ok: false, message: 'The stored photo changed after it was checked; it was removed.' };
}

/** The comparison behind checkBinding, read-only (one HEAD): for callers that may only look. */
export async function bindingHolds(hash: string, bound: ObjectBinding): Promise<boolean | 'missing'> {
  const head = await headObject(mediaKey.upload(hash));
  if (!head) return 'missing';
  return (
    head.etag === bound.etag &&
    head.size === bound.size &&
    head.size < MAX_UPLOAD_BYTES &&
    (!head.checksumSha256 || head.checksumSha256 === hashChecksum(hash))
  );
}

export type UploadCheck =
  | { ok: true; info: ImageInfo; bytes: Buffer; binding: ObjectBinding }
  | {
      ok: false;
      reason: 'missing' | 'hash-mismatch' | 'too-large' | 'not-an-image' | 'too-many-pixels';
      message: string;
    };

/**
 * Checks an uploaded photo (the stored copy, or a registration's proof upload) against the hash it was registered under: size first (a HEAD, nothing read), then the
 * SHA-256 of the bytes, type from the bytes and the pixel limit. A bad object is deleted so it can never be
 * moderated, previewed or sold. (S3 emulators verify no checksums, and a PUT may carry anything, so the server must.)
 * The binding returned is the ETag of the very response whose bytes were hashed.
 */
export async function verifyUpload(hash: string, key = mediaKey.upload(hash)): Promise<UploadCheck> {
  const fail = async (reason: Exclude<UploadCheck, { ok: true }>['reason'], message: string): Promise<UploadCheck> => {
    await deleteObject(key);
    return { ok: false, reason, message };
  };
  const head = await headObject(key);
  if (!head) return { ok: false, reason: 'missing', message: 'Image has not been uploaded.' };
  if (head.size >= MAX_UPLOAD_BYTES) return fail('too-large', 'File size must be less than 10MB');
  let res: GetObjectCommandOutput;
  try {
    res = await s3().send(new GetObjectCommand({ Bucket: settings.mediaBucket, Key: key }));
  } catch (err) {
    if (await isMissingKey(err, key)) return { ok: false, reason: 'missing', message: 'Image has not been uploaded.' };
    throw err;
  }
  // Replaced between the HEAD and the GET: still never read more than the limit into memory.
  if ((res.ContentLength ?? 0) >= MAX_UPLOAD_BYTES) {
    await (res.Body as { destroy?: () => void } | undefined)?.destroy?.();
    return fail('too-large', 'File size must be less than 10MB');
  }
  const bytes = Buffer.from(await res.Body!.transformToByteArray());
  if (bytes.length >= MAX_UPLOAD_BYTES) return fail('too-large', 'File size must be less than 10MB');
  if (createHash('sha256').update(bytes).digest('hex') !== hash) {
    return fail('hash-mismatch', 'Uploaded bytes do not match the image hash.');
  }
  const info = readImageInfo(bytes);
  if (!info) return fail('not-an-image', 'Only JPG/PNG files are allowed');
  if (info.width * info.height > MAX_PIXELS) {
    return fail(
      'too-many-pixels',
      `Image is too large: ${info.width}×${info.height} pixels exceeds the ${MAX_PIXELS / 1e6} MP limit.`,
    );
  }
  return { ok: true, info, bytes, binding: { etag: res.ETag ?? '', size: bytes.length } };
}
