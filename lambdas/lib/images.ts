import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImageInfo } from '../../domain/image-format';
import type { RefusalCategory } from '../../domain/moderation-policy';
import { ddb } from './aws';
import { settings } from './settings';

/** 'allowed' passes; 'rejected' failed moderation; 'invalid' failed the upload check (object removed). */
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
  /** Style ids whose watermarked preview is stored (previews/<hash>/<style>.png). */
  previews?: string[];
  /** Which renderer made each preview (lambdas/lib/renderer.ts ids): a paid item must come from the same one. */
  preview_renderers?: Record<string, string>;
  /** Generative styles not previewed on `day` because the daily preview budget was spent. */
  previews_paused?: { day: string; styles: string[] };
}

const table = () => settings.table('images');

export async function getImage(hash: string): Promise<ImageRecord | null> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: { image_hash: hash } }));
  return (res.Item as ImageRecord | undefined) ?? null;
}

/** Records a registration; keeps the first registration time and clears a stale verification. */
export async function registerImage(hash: string, fileType: string): Promise<void> {
  await ddb().send(new UpdateCommand({
    TableName: table(),
    Key: { image_hash: hash },
    UpdateExpression: 'SET file_type = :t, registered_at = if_not_exists(registered_at, :now), verified = :f',
    ExpressionAttributeValues: { ':t': fileType, ':now': new Date().toISOString(), ':f': false },
  }));
}

export async function markVerified(hash: string, info: ImageInfo): Promise<void> {
  await ddb().send(new UpdateCommand({
    TableName: table(),
    Key: { image_hash: hash },
    UpdateExpression: 'SET verified = :v, file_type = :t, width = :w, height = :h, registered_at = if_not_exists(registered_at, :now)',
    ExpressionAttributeValues: { ':v': true, ':t': info.type, ':w': info.width, ':h': info.height, ':now': new Date().toISOString() },
  }));
}

export async function recordModeration(hash: string, verdict: ModerationVerdict, reasons: string[], category: RefusalCategory | null = null): Promise<void> {
  await ddb().send(new UpdateCommand({
    TableName: table(),
    Key: { image_hash: hash },
    UpdateExpression: 'SET moderation = :m, moderation_reasons = :r, moderated_at = :now'
      + (verdict === 'invalid' ? ', verified = :f' : '')
      + (category ? ', moderation_category = :c' : ' REMOVE moderation_category'),
    ExpressionAttributeValues: {
      ':m': verdict, ':r': reasons, ':now': new Date().toISOString(),
      ...(verdict === 'invalid' ? { ':f': false } : {}), ...(category ? { ':c': category } : {}),
    },
  }));
}

/** Adds previews just made (style → renderer id) to the record, keeping the others; records today's paused styles. */
export async function recordPreviews(hash: string, made: Record<string, string>, paused?: { day: string; styles: string[] }): Promise<void> {
  const latest = await getImage(hash);
  const renderers = { ...(latest?.preview_renderers ?? {}), ...made };
  const previews = [...new Set([...(latest?.previews ?? []), ...Object.keys(made)])];
  if (paused && latest?.previews_paused?.day === paused.day) paused = { day: paused.day, styles: [...new Set([...latest.previews_paused.styles, ...paused.styles])] };
  await ddb().send(new UpdateCommand({
    TableName: table(),
    Key: { image_hash: hash },
    UpdateExpression: 'SET previews = :p, preview_renderers = :r' + (paused ? ', previews_paused = :z' : ''),
    ConditionExpression: 'attribute_exists(image_hash)',
    ExpressionAttributeValues: { ':p': previews, ':r': renderers, ...(paused ? { ':z': paused } : {}) },
  }));
}
