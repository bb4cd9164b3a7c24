/**
 * The engine's output rules in one place: PNG, no metadata (no EXIF, no ICC profile), optional preview watermark.
 * Images the engine renders and images a generative model returns (lambdas/lib/bedrock.ts) both leave through here.
 * Imports only sharp and the codec helpers (no style pool), so a Lambda function can bundle it.
 */
import sharp from 'sharp';
import { decodeInput, encodePng } from './image-io';
import { watermarkSvg } from './watermark';

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** Encodes RGB pixels as the engine's output PNG, with the 'ToonZap' mark for free previews. */
export async function encodeOutput(px: Pixels, watermark: boolean, palette: boolean): Promise<Buffer> {
  if (!watermark) return encodePng(px.data, px.width, px.height, { compressionLevel: palette ? 9 : 6 });
  return sharp(px.data, { raw: { width: px.width, height: px.height, channels: 3 } })
    .composite([{ input: watermarkSvg(px.width, px.height), top: 0, left: 0 }])
    .removeAlpha()
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/**
 * An image made elsewhere (JPEG or PNG bytes) brought to the output rules: decoded with the engine's checks
 * (type from the bytes, pixel limit, EXIF orientation, sRGB), shrunk so the long side is at most `maxSize`
 * (never enlarged, unless `enlarge`: then a smaller image is enlarged with lanczos3 to exactly `maxSize`, as paid
 * engine renders are), re-encoded as PNG without metadata, watermarked if asked. Throws ImageInputError for bad bytes.
 */
export async function normaliseImage(
  bytes: Buffer,
  opts: { maxSize: number; watermark?: boolean; enlarge?: boolean },
): Promise<{ png: Buffer; width: number; height: number }> {
  const img = await decodeInput(bytes, { maxSize: opts.maxSize, enlarge: opts.enlarge });
  return { png: await encodeOutput(img, opts.watermark ?? false, false), width: img.width, height: img.height };
}
