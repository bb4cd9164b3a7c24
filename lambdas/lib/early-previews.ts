import { STYLE_IDS } from '../../domain/styles';
import { METRICS } from '../../domain/wiring';
import { getImage, type ModerationVerdict, recordPreviews } from './images';
import { deleteObject, mediaKey } from './media';
import { allowedUpload } from './moderation';
import { countMetric, logger } from './observability';
import { isEngineStyle, renderEnginePreviews } from './previews';
import { pendingPreviews, rendererFor } from './renderer';

/**
 * The style step's engine previews of a photo, rendered while that photo is still being moderated
 * (lambdas/tasks/moderate-images.ts): the engine's work (read, decode, analysis, every style) overlaps the
 * verdict's (hash check, Rekognition) instead of following it, so the previews are ready when the verdict is.
 *
 * Computed before the verdict, shown only after it: they are recorded on the image (what get-thumbnails lists, and
 * only for an allowed photo) once the verdict is 'allowed' and the stored object is still the one judged. A photo
 * refused, invalid or changed has every one of their objects deleted. Best effort: a render that fails (no engine
 * capacity, an engine error) leaves the previews job to make them, as before. A verdict that fails counts as none.
 * Resolves to the styles recorded.
 */
export async function previewsDuringModeration(
  hash: string,
  verdict: Promise<ModerationVerdict | null>,
): Promise<string[]> {
  const styles = pendingPreviews(await getImage(hash), STYLE_IDS.filter(isEngineStyle));
  if (!styles.length) {
    await verdict;
    return [];
  }
  const render = renderEnginePreviews(hash, styles).then(
    (made) => ({ made }),
    (error: Error) => ({ error }),
  );
  // A verdict that failed (the job fails with it) is no verdict: what was drawn goes, like a refused photo's.
  const [rendered, moderation] = await Promise.all([render, verdict.catch(() => null)]);
  const use = moderation === 'allowed' ? await allowedUpload(hash) : null;
  if (!use?.ok) {
    // Every key, not only those reported made: a failed batch may have written some before it failed.
    await Promise.all(styles.map((s) => deleteObject(mediaKey.preview(hash, s))));
    return [];
  }
  if ('error' in rendered) {
    logger.warn('early previews failed', { image_hash: hash, error: rendered.error });
    return [];
  }
  await recordPreviews(hash, { made: Object.fromEntries(rendered.made.map((s) => [s, rendererFor(s).id])) });
  countMetric(METRICS.previewsMade, rendered.made.length);
  return rendered.made;
}
