import sharp, { type Metadata } from 'sharp';
import { MAX_PIXELS, sniffType } from '../domain/image-format';
import { ImageInputError } from './errors';

// The engine is called for one image at a time per request; keep libvips' memory small and predictable.
sharp.cache(false);

export type InputFormat = 'jpeg' | 'png';

export interface DecodeOptions {
  /** Refuse inputs with more pixels than this (width x height). Default MAX_PIXELS (domain/image-format.ts). */
  maxPixels?: number;
  /** If set, shrink (never enlarge) so the long side is at most this many px. Uses JPEG shrink-on-load. */
  maxSize?: number;
  /**
   * With maxSize: also enlarge a smaller photo (lanczos3) so the long side is exactly maxSize. Paid renders are
   * sold at their size; the styles' own smoothing and flat colour hide what the resampler cannot invent.
   */
  enlarge?: boolean;
}

export interface DecodedImage {
  /** Interleaved 8-bit sRGB, 3 channels, no alpha. */
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
  /** Detected container format. */
  format: InputFormat;
  /** Size of the source image after EXIF orientation, before any shrinking. */
  sourceWidth: number;
  sourceHeight: number;
}

/** Identify JPEG / PNG by magic bytes (the service's one sniffer); anything else is refused. */
export function sniffFormat(bytes: Uint8Array): InputFormat | undefined {
  const type = sniffType(bytes);
  return type === 'image/jpeg' ? 'jpeg' : type === 'image/png' ? 'png' : undefined;
}

/**
 * Decode a JPEG or PNG into 8-bit sRGB RGB pixels: EXIF orientation applied, ICC/CMYK/grey converted
 * to sRGB, alpha flattened onto white, optional shrink (on load for JPEG) to `maxSize`.
 * Throws ImageInputError for unsupported, corrupt or oversized input.
 */
export async function decodeInput(bytes: Buffer, opts: DecodeOptions = {}): Promise<DecodedImage> {
  if (!((bytes as unknown) instanceof Uint8Array)) {
    throw new ImageInputError('Input must be a Buffer with JPEG or PNG data.');
  }
  const format = sniffFormat(bytes);
  if (!format) throw new ImageInputError('Unsupported image type: only JPEG and PNG images are accepted.');
  const maxPixels = opts.maxPixels ?? MAX_PIXELS;
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ImageInputError(`Corrupt or unreadable ${format.toUpperCase()} image.`, { cause: err });
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw new ImageInputError(`Corrupt ${format.toUpperCase()} image: missing dimensions.`);
  if (w * h > maxPixels) {
    throw new ImageInputError(
      `Image too large: ${w}x${h} is ${((w * h) / 1e6).toFixed(1)} megapixels, the limit is ${(maxPixels / 1e6).toFixed(1)} megapixels.`,
    );
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const sourceWidth = swap ? h : w;
  const sourceHeight = swap ? w : h;
  let pipeline = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', sequentialRead: true }).rotate();
  const long = Math.max(sourceWidth, sourceHeight);
  if (opts.maxSize && (long > opts.maxSize || (opts.enlarge && long < opts.maxSize))) {
    pipeline = pipeline.resize({
      width: opts.maxSize,
      height: opts.maxSize,
      fit: 'inside',
      withoutEnlargement: !opts.enlarge,
      kernel: 'lanczos3',
    });
  }
  try {
    const { data, info } = await pipeline
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected channel count ${info.channels}`);
    return { data, width: info.width, height: info.height, channels: 3, format, sourceWidth, sourceHeight };
  } catch (err) {
    if (err instanceof ImageInputError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(msg)) {
      throw new ImageInputError(`Image too large: the limit is ${(maxPixels / 1e6).toFixed(1)} megapixels.`, {
        cause: err,
      });
    }
    throw new ImageInputError(`Corrupt or unreadable ${format.toUpperCase()} image: ${msg}`, { cause: err });
  }
}

/**
 * A decoded image shrunk to `maxSize` px on its long side (lanczos3, as decodeInput shrinks), or itself when it is no
 * larger: a second size of one decode, without decoding the photo again.
 */
export async function shrinkDecoded(img: DecodedImage, maxSize: number): Promise<DecodedImage> {
  if (Math.max(img.width, img.height) <= maxSize) return img;
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .resize({ width: maxSize, height: maxSize, fit: 'inside', kernel: 'lanczos3' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { ...img, data, width: info.width, height: info.height };
}

export interface EncodeOptions {
  /** zlib level 0-9 (default 6). */
  compressionLevel?: number;
  /** Quantise to a palette (smaller files; used for static thumbnails). */
  palette?: boolean;
  quality?: number;
}

/** Encode interleaved RGB to PNG. No metadata (no EXIF, no ICC profile) is written. */
export async function encodePng(rgb: Buffer, width: number, height: number, opts: EncodeOptions = {}): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png({
      compressionLevel: opts.compressionLevel ?? 6,
      adaptiveFiltering: false,
      palette: opts.palette ?? false,
      quality: opts.quality,
      effort: opts.palette ? 10 : undefined,
    })
    .toBuffer();
}
