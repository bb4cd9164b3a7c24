import { STYLES } from '../../engine/styles';
import { renderOnEngine } from '../lib/engine';
import { getImage, recordPreviews } from '../lib/images';
import { runJob } from '../lib/jobs';
import { mediaKey } from '../lib/media';
import { settings } from '../lib/settings';

export interface PreviewsInput { job_id?: string; image_hash: string }

/** Step Functions task: every style of the catalogue at 256 px, watermarked, for one allowed photo. */
export async function handler(input: PreviewsInput) {
  return runJob(input.job_id, async () => {
    const image = await getImage(input.image_hash);
    if (image?.moderation !== 'allowed') throw new NotAllowedError(`Image ${input.image_hash} has not passed moderation.`);
    const bucket = settings.mediaBucket;
    const res = await renderOnEngine({
      input: { bucket, key: mediaKey.upload(input.image_hash) },
      kind: 'thumbnail',
      size: 256,
      watermark: true,
      outputs: STYLES.map((s) => ({ style: s.id, bucket, key: mediaKey.preview(input.image_hash, s.id) })),
    });
    const styles = res.outputs.map((o) => o.style);
    await recordPreviews(input.image_hash, styles);
    return { image_hash: input.image_hash, styles, ms: res.ms };
  });
}

class NotAllowedError extends Error {
  override name = 'NotAllowed';
}
