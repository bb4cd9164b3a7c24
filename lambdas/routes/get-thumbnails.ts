import { contract } from '../../domain/contract';
import { STYLES } from '../../domain/styles';
import { HttpError, httpHandler, parseWith, pathParam, respond } from '../lib/http';
import { mediaKey, presignDownload } from '../lib/media';
import { ownedImage } from '../lib/owners';
import { pausedPreviews } from '../lib/renderer';

/**
 * GET /api/get-thumbnails/{image_hash} → [{style: {id}, image: short-lived URL}] in catalogue order (the photo's
 * owner only), plus
 * {style: {id}, image: null, paused: true} for generative styles whose previews are paused today (budget spent) and
 * {style: {id}, image: null, busy: true} for those whose model had no capacity when last asked (a busy minute).
 */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash } = parseWith(contract['get-thumbnails'].params, {
    image_hash: pathParam(event, 'image_hash'),
  });
  const image = await ownedImage(event, hash);
  if (image.moderation !== 'allowed') throw new HttpError(403, 'Image has not passed moderation.');
  const shown = STYLES.filter((s) => image.previews?.includes(s.id));
  const paused = new Set(pausedPreviews(image));
  const busy = new Set(image.previews_busy ?? []);
  const ready = await Promise.all(
    shown.map(async (s) => ({ style: { id: s.id }, image: await presignDownload(mediaKey.preview(hash, s.id)) })),
  );
  const waiting = STYLES.filter((s) => !image.previews?.includes(s.id));
  const pausedList = waiting
    .filter((s) => paused.has(s.id))
    .map((s) => ({ style: { id: s.id }, image: null, paused: true as const }));
  const busyList = waiting
    .filter((s) => busy.has(s.id) && !paused.has(s.id))
    .map((s) => ({ style: { id: s.id }, image: null, busy: true as const }));
  return respond('get-thumbnails', 200, [...ready, ...pausedList, ...busyList]);
});
