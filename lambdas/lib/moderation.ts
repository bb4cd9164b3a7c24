import { DetectModerationLabelsCommand } from '@aws-sdk/client-rekognition';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { photoSizeProblem, readImageInfo } from '../../domain/image-format';
import { judgeLabels } from '../../domain/moderation-policy';
import { METRICS } from '../../domain/wiring';
import { rekognition, s3 } from './aws';
import {
  getImage,
  type ImageRecord,
  type ModerationVerdict,
  markVerified,
  passBinding,
  recordModeration,
} from './images';
import { checkBinding, deleteObject, mediaKey, verifyUpload } from './media';
import { countMetric, timed } from './observability';
import { settings } from './settings';

export interface ModerationOutcome {
  image_hash: string;
  moderation: ModerationVerdict;
  reasons: string[];
  /** The verdict already stood, bound to the object still stored: no Rekognition call was made. */
  reused?: boolean;
}

/** Rekognition refuses these images outright: they can never be allowed, so they are 'invalid', not retried. */
const IMAGE_ERRORS = new Set(['InvalidImageFormatException', 'ImageTooLargeException', 'InvalidS3ObjectException']);

/**
 * Moderates one uploaded photo (never a cartoon of it), once: a verdict bound to the object still stored is reused
 * (one HEAD, no model call). Otherwise: verify the bytes against the hash, Rekognition's DetectModerationLabels on
 * the stored object, judged by the Terms' policy; the verdict is recorded with the ETag of the bytes that were
 * hashed, after checking Rekognition read that same object. Objects that fail anywhere, or are refused, are deleted.
 */
export async function moderateImage(hash: string): Promise<ModerationOutcome> {
  const record = await getImage(hash);
  if (!record) return done(hash, 'invalid', ['Image was never registered.']);
  if (record.moderation === 'rejected') {
    // A refusal is a fact about the bytes (their hash was checked), not about a stored object: it stands without
    // them, and a refused photo is never kept (a copy stored since, by a new registration, goes too).
    await deleteObject(mediaKey.upload(hash));
    return { image_hash: hash, moderation: 'rejected', reasons: record.moderation_reasons ?? [], reused: true };
  }
  const judged = passBinding(record);
  if (judged) {
    const still = await checkBinding(hash, judged);
    if (!still.ok) return done(hash, 'invalid', [still.message]);
    // Allowed before the minimum size or the shape rule existed: refused now, before anyone pays for it.
    const unfit = photoSizeProblem(record);
    if (unfit) return refuseSize(hash, unfit);
    return { image_hash: hash, moderation: record.moderation!, reasons: record.moderation_reasons ?? [], reused: true };
  }
  const check = await verifyUpload(hash);
  if (!check.ok) return done(hash, 'invalid', [check.message]);
  await markVerified(hash, check.info);
  // Read from the header: a photo too small to draw from, or too long and narrow for the models, never reaches one.
  const unfit = photoSizeProblem(check.info);
  if (unfit) return refuseSize(hash, unfit);
  let verdict: ReturnType<typeof judgeLabels>;
  try {
    const res = await timed(METRICS.moderationLatency, null, () =>
      rekognition().send(
        new DetectModerationLabelsCommand({
          Image: { S3Object: { Bucket: settings.mediaBucket, Name: mediaKey.upload(hash) } },
          MinConfidence: Math.min(50, settings.moderationMinConfidence),
        }),
      ),
    );
    verdict = judgeLabels(res.ModerationLabels ?? [], settings.moderationMinConfidence);
  } catch (err) {
    if (!IMAGE_ERRORS.has((err as Error).name)) throw err;
    // A valid header on bytes no decoder accepts: unusable for good, so it goes.
    await deleteObject(mediaKey.upload(hash));
    return done(hash, 'invalid', [`${(err as Error).name}: ${(err as Error).message}`]);
  }
  // Rekognition read the object by name: it must still be the one whose bytes were hashed.
  const after = await checkBinding(hash, check.binding);
  if (!after.ok) return done(hash, 'invalid', [after.message]);
  if (verdict.allowed) return done(hash, 'allowed', verdict.reasons, verdict.category, check.binding);
  const outcome = await done(hash, 'rejected', verdict.reasons, verdict.category);
  // Recorded first: a run that dies here leaves the photo for the next run's reuse above to delete.
  await deleteObject(mediaKey.upload(hash));
  return outcome;
}

/**
 * Deletes a photo under the minimum size or of a shape the models refuse; its record keeps the size, so the visitor
 * is told why (get-moderation).
 */
async function refuseSize(hash: string, problem: string): Promise<ModerationOutcome> {
  await deleteObject(mediaKey.upload(hash));
  return done(hash, 'invalid', [`This photo ${problem}.`]);
}

/** Records the verdict (the same arguments as recordModeration) and counts a refusal. */
async function done(...verdict: Parameters<typeof recordModeration>): Promise<ModerationOutcome> {
  await recordModeration(...verdict);
  const [hash, moderation, reasons] = verdict;
  if (moderation !== 'allowed') countMetric(METRICS.moderationRefusals);
  return { image_hash: hash, moderation, reasons };
}

/** Bytes of an upload read for its header: PNG's IHDR is at the start, a JPEG's frame header after its EXIF (< 64 KB). */
const HEADER_BYTES = 64 * 1024;

/**
 * Whether an upload's header says its size and shape can be drawn (photoSizeProblem), read from its first bytes
 * (one ranged GET): work that starts before the verdict (the engine's early previews) runs only on a photo that
 * passes. False when the header is not in those bytes or the object is missing: the work waits for the verdict.
 */
export async function uploadHeaderFits(hash: string): Promise<boolean> {
  try {
    const res = await s3().send(
      new GetObjectCommand({
        Bucket: settings.mediaBucket,
        Key: mediaKey.upload(hash),
        Range: `bytes=0-${HEADER_BYTES - 1}`,
      }),
    );
    const info = readImageInfo(await res.Body!.transformToByteArray());
    return info !== null && photoSizeProblem(info) === null;
  } catch {
    return false;
  }
}

/** Whether a use (previews, generation) may read an upload; when not, why, in words for the operator and the item. */
export type UploadUse = { ok: true; record: ImageRecord } | { ok: false; reason: string };

/**
 * Gate before any use of an uploaded photo: its verdict is 'allowed' and the stored object is still the one that
 * verdict was made on (a HEAD, before anything is read). A changed object is deleted and the image marked invalid,
 * so it is never rendered; a verdict from before verdicts were bound counts as no verdict.
 */
export async function allowedUpload(hash: string): Promise<UploadUse> {
  const record = await getImage(hash);
  if (record?.moderation !== 'allowed') return { ok: false, reason: 'Image has not passed moderation.' };
  const bound = passBinding(record);
  if (!bound) return { ok: false, reason: 'Image has not passed moderation.' };
  const still = await checkBinding(hash, bound);
  if (still.ok) return { ok: true, record };
  await recordModeration(hash, 'invalid', [still.message]);
  return { ok: false, reason: still.message };
}

/** Runs `fn` over items with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return results;
}
