import { renderOnEngine } from '../lib/engine';
import { getImage, recordPreviews } from '../lib/images';
import { mediaKey } from '../lib/media';
import { getGeneration } from '../lib/orders';
import { settings } from '../lib/settings';

export interface OrderPreviewsInput { order_id: string; prepared: { allowed: string[] } }

/**
 * Order pipeline: watermarked 256 px previews of the ordered styles for each allowed photo that lacks them
 * (the gallery and thumbnails use them). One engine call per photo renders all its missing styles.
 * Best effort: previews are not what the customer paid for, so a failure is logged and the order goes on.
 */
export async function handler(input: OrderPreviewsInput) {
  const generation = await getGeneration(input.order_id);
  if (!generation) throw new Error(`Generation ${input.order_id} not found`);
  const bucket = settings.mediaBucket;
  const made: Record<string, string[]> = {};
  for (const hash of input.prepared.allowed) {
    const styles = [...new Set(Object.values(generation.items).filter((i) => i.image_hash === hash).map((i) => i.style))];
    const image = await getImage(hash);
    const missing = styles.filter((s) => !image?.previews?.includes(s));
    if (!missing.length) continue;
    try {
      const res = await renderOnEngine({
        input: { bucket, key: mediaKey.upload(hash) },
        kind: 'thumbnail',
        size: 256,
        watermark: true,
        outputs: missing.map((style) => ({ style, bucket, key: mediaKey.preview(hash, style) })),
      });
      const latest = await getImage(hash);
      await recordPreviews(hash, [...new Set([...(latest?.previews ?? []), ...res.outputs.map((o) => o.style)])]);
      made[hash] = res.outputs.map((o) => o.style);
    } catch (err) {
      console.warn(JSON.stringify({ level: 'warn', order_id: input.order_id, image_hash: hash, message: `previews skipped: ${(err as Error).message}` }));
    }
  }
  return { made };
}
