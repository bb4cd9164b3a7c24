import { DetectModerationLabelsCommand } from '@aws-sdk/client-rekognition';
import { judgeLabels, type RefusalCategory } from '../../domain/moderation-policy';
import { rekognition } from './aws';
import { getImage, markVerified, recordModeration, type ModerationVerdict } from './images';
import { mediaKey, verifyUpload } from './media';
import { settings } from './settings';

export interface ModerationOutcome { image_hash: string; moderation: ModerationVerdict; reasons: string[] }

/** Rekognition refuses these images outright: they can never be allowed, so they are 'invalid', not retried. */
const IMAGE_ERRORS = new Set(['InvalidImageFormatException', 'ImageTooLargeException', 'InvalidS3ObjectException']);

/**
 * Moderates one uploaded photo (never a cartoon of it): verify bytes against the hash, then Rekognition's
 * DetectModerationLabels on the stored object, judged by the Terms' policy. The verdict is recorded.
 */
export async function moderateImage(hash: string): Promise<ModerationOutcome> {
  const record = await getImage(hash);
  if (!record) return done(hash, 'invalid', ['Image was never registered.']);
  const check = await verifyUpload(hash);
  if (!check.ok) return done(hash, 'invalid', [check.message]);
  await markVerified(hash, check.info);
  try {
    const res = await rekognition().send(new DetectModerationLabelsCommand({
      Image: { S3Object: { Bucket: settings.mediaBucket, Name: mediaKey.upload(hash) } },
      MinConfidence: Math.min(50, settings.moderationMinConfidence),
    }));
    const verdict = judgeLabels(res.ModerationLabels ?? [], settings.moderationMinConfidence);
    return done(hash, verdict.allowed ? 'allowed' : 'rejected', verdict.reasons, verdict.category);
  } catch (err) {
    if (IMAGE_ERRORS.has((err as Error).name)) return done(hash, 'invalid', [`${(err as Error).name}: ${(err as Error).message}`]);
    throw err;
  }
}

async function done(hash: string, moderation: ModerationVerdict, reasons: string[], category: RefusalCategory | null = null): Promise<ModerationOutcome> {
  await recordModeration(hash, moderation, reasons, category);
  return { image_hash: hash, moderation, reasons };
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
