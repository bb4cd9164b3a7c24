import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ImageInfo } from '../../domain/image-format';
import type { RefusalCategory } from '../../domain/moderation-policy';
import { expiresAt } from '../../domain/privacy';
import { ddb } from './aws';
import { updateCommand } from './item-update';
import type { ObjectBinding } from './media';
import { settings } from './settings';

/** 'allowed' passes; 'rejected' failed moderation; 'invalid' failed the upload check (both: object removed). */
export type ModerationVerdict = 'allowed' | 'rejected' | 'invalid';

export interface ImageRecord {
  image_hash: string;
  file_type: string;
  registered_at: string;
  verified?: boolean;
  width?: number;
  height?: number;
  moderation?: ModerationVerdict;
  /** For the operator: labels or check failures behind a verdict other than 'allowed'. */
  moderation_reasons?: string[];
  moderated_at?: string;
  /** For the visitor: what kind of content refused the photo ('rejected' only). */
  moderation_category?: RefusalCategory;
  /** TTL (Unix seconds), domain/privacy.ts. */
  expires_at?: number;
  /** Style ids whose watermarked preview is stored (previews/<hash>/<style>.png). */
  previews?: string[];
  /** Which renderer made each preview (lambdas/lib/renderer.ts ids): a paid item must come from the same one. */
  preview_renderers?: Record<string, string>;
  /** Generative styles not previewed on `day` because the daily preview budget was spent. */
  previews_paused?: { day: string; styles: string[] };
  /**
   * Generative styles whose last preview attempt found no model capacity (paid renders had the minute): not a refusal
   * and not the day's budget, so the next previews request tries them again.
   */
  previews_busy?: string[];
  /** Styles whose model refused this photo (content filtered, input refused), by renderer id: not asked again. */
  previews_refused?: Record<string, string>;
  /** Size the browser declared at registration (the upload URL signs exactly this length). */
  file_size?: number;
  /**
   * The stored object the verdict was made on (ETag and length as S3 reports them): every later use checks the
   * object still matches before it is read, so bytes written after moderation are never used.
   */
  object_etag?: string;
  object_size?: number;
}

/**
 * The object a pass is bound to: null for any other verdict (a refusal stands without its photo, lambdas/lib/
 * moderation.ts) and for a pass made before verdicts were bound (judge it again).
 */
export function passBinding(record: ImageRecord): ObjectBinding | null {
  return record.moderation === 'allowed' && record.object_etag && typeof record.object_size === 'number'
    ? { etag: record.object_etag, size: record.object_size }
    : null;
}

const table = () => settings.table('images');

export async function getImage(hash: string): Promise<ImageRecord | null> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: { image_hash: hash } }));
  return (res.Item as ImageRecord | undefined) ?? null;
}

/**
 * Records a registration for a new upload URL: keeps the first registration time; clears the verification, any
 * verdict and its binding, and the preview list, since a new object is about to be written. Only called when no
 * judged object is stored (upload-image refuses to re-register an image whose judged object is still there).
 */
export async function registerImage(hash: string, fileType: string, fileSize: number): Promise<void> {
  await ddb().send(
    updateCommand('images', hash, {
      set: { file_type: fileType, file_size: fileSize, verified: false },
      // Expires with the upload it describes (both counted from the first registration, domain/privacy.ts).
      setIfMissing: { registered_at: new Date().toISOString(), expires_at: expiresAt('imageRecords') },
      remove: [
        'moderation',
        'moderation_reasons',
        'moderated_at',
        'moderation_category',
        'object_etag',
        'object_size',
        'previews',
        'preview_renderers',
        'previews_busy',
      ],
    }),
  );
}

export async function markVerified(hash: string, info: ImageInfo): Promise<void> {
  await ddb().send(
    updateCommand('images', hash, {
      set: { verified: true, file_type: info.type, width: info.width, height: info.height },
      setIfMissing: { registered_at: new Date().toISOString() },
    }),
  );
}

/**
 * Records a verdict. 'allowed' is bound to the object it judged ('rejected' stands for the bytes' hash, its object
 * deleted); 'invalid' means the object is gone (deleted or never there), so the verification, the binding and the preview list go too.
 */
export async function recordModeration(
  hash: string,
  verdict: ModerationVerdict,
  reasons: string[],
  category: RefusalCategory | null = null,
  binding: ObjectBinding | null = null,
): Promise<void> {
  const set: Record<string, unknown> = {
    moderation: verdict,
    moderation_reasons: reasons,
    moderated_at: new Date().toISOString(),
  };
  const remove: string[] = [];
  if (category) set.moderation_category = category;
  else remove.push('moderation_category');
  if (binding && verdict !== 'invalid') Object.assign(set, { object_etag: binding.etag, object_size: binding.size });
  else remove.push('object_etag', 'object_size');
  if (verdict === 'invalid') {
    set.verified = false;
    remove.push('previews', 'preview_renderers', 'previews_busy');
  }
  await ddb().send(updateCommand('images', hash, { set, remove }));
}

/** What one previews run did, style by style (lambdas/lib/previews.ts). */
export interface PreviewOutcome {
  /** Style → renderer id of each preview made. */
  made: Record<string, string>;
  /** Generative styles past today's budget. */
  paused?: { day: string; styles: string[] };
  /** Style → renderer id that refused the photo. */
  refused?: Record<string, string>;
  /** Generative styles that found no model capacity (a busy minute): asked again on the next previews request. */
  busy?: string[];
}

/**
 * Adds previews just made to the record, keeping the others; records today's paused styles, the refusals, and which
 * styles are busy now (a style made, paused or refused in this run is no longer busy).
 */
export async function recordPreviews(hash: string, outcome: PreviewOutcome): Promise<void> {
  const { made, refused = {}, busy = [] } = outcome;
  let paused = outcome.paused;
  const latest = await getImage(hash);
  const renderers = { ...(latest?.preview_renderers ?? {}), ...made };
  const refusals = { ...(latest?.previews_refused ?? {}), ...refused };
  const previews = [...new Set([...(latest?.previews ?? []), ...Object.keys(made)])];
  if (paused && latest?.previews_paused?.day === paused.day)
    paused = { day: paused.day, styles: [...new Set([...latest.previews_paused.styles, ...paused.styles])] };
  const settled = new Set([...Object.keys(made), ...Object.keys(refused), ...(paused?.styles ?? [])]);
  const stillBusy = [...new Set([...(latest?.previews_busy ?? []), ...busy])].filter(
    (s) => busy.includes(s) || !settled.has(s),
  );
  await ddb().send(
    updateCommand('images', hash, {
      // previews_paused only when this run paused styles (undefined is left as it is)
      set: {
        previews,
        preview_renderers: renderers,
        previews_refused: refusals,
        previews_busy: stillBusy,
        previews_paused: paused,
      },
      condition: 'attribute_exists(image_hash)',
    }),
  );
}
