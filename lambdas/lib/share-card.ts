import sharp from 'sharp';
import { SHARE_CARD } from '../../domain/ownership';
import { mediaKey } from '../../domain/wiring';
import { readObject, writeObject } from './media';

/**
 * The picture a share link shows on social networks (og:image): the delivered image whole, centred on a blurred,
 * darkened enlargement of itself at the networks' large-card size, so nothing of the face is cropped. Made once,
 * when the image is delivered; served as it is (GET /api/share-card/{id}/{style}), never rendered per view.
 */
export async function makeShareCard(outputKey: string, shareId: string, style: string): Promise<void> {
  const image = await readObject(outputKey);
  if (!image) throw new Error(`${outputKey} is missing: no share card`);
  const { width, height, quality } = SHARE_CARD;
  const [backdrop, front] = await Promise.all([
    sharp(image).resize(width, height, { fit: 'cover' }).blur(24).modulate({ brightness: 0.6 }).toBuffer(),
    sharp(image).resize(width, height, { fit: 'inside' }).toBuffer(),
  ]);
  const card = await sharp(backdrop)
    .composite([{ input: front, gravity: 'centre' }])
    .jpeg({ quality, mozjpeg: true })
    .toBuffer();
  await writeObject(mediaKey.shareCard(shareId, style), card, 'image/jpeg');
}
