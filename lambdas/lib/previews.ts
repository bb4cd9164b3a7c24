import { STYLES } from '../../domain/styles';
import { renderOnEngine } from './engine';
import { getImage, recordPreviews } from './images';
import { mediaKey } from './media';
import { settings } from './settings';

export class NotAllowedError extends Error {
  override name = 'NotAllowed';
}

/** Every style of the catalogue at 256 px with the preview watermark, for one allowed photo: one engine call. */
export async function makePreviews(hash: string): Promise<{ image_hash: string; styles: string[]; ms: number }> {
  const image = await getImage(hash);
  if (image?.moderation !== 'allowed') throw new NotAllowedError(`Image ${hash} has not passed moderation.`);
  const bucket = settings.mediaBucket;
  const res = await renderOnEngine({
    input: { bucket, key: mediaKey.upload(hash) },
    kind: 'thumbnail',
    size: 256,
    watermark: true,
    outputs: STYLES.map((s) => ({ style: s.id, bucket, key: mediaKey.preview(hash, s.id) })),
  });
  const styles = res.outputs.map((o) => o.style);
  await recordPreviews(hash, styles);
  return { image_hash: hash, styles, ms: res.ms };
}
