import { type AcceptedType, isAcceptedType, MAX_FILE_BYTES, sniffImageType } from './upload-rules';

/** How the service reads an image's type and size from its first bytes (no decoder needed), and its limits. */

/** Long side in px of a free preview (every style, engine or model). */
export const PREVIEW_LONG_SIDE = 256;
/**
 * Long side in px of every paid image, engine or model: larger photos are shrunk to it, smaller ones and the
 * model's smaller outputs enlarged to it (lanczos3), so a customer always gets the size the pricing page states.
 */
export const PAID_LONG_SIDE = 2048;

/**
 * Photos smaller than this on their short side are refused at the style step, before anyone can pay for them: a
 * cartoon of a thumbnail has too little to draw from. The moderation task, the checkout and the browser check it.
 */
export const MIN_SHORT_SIDE = 256;

/**
 * The longest a photo may be for its width (long side / short side): the generative models refuse anything more
 * elongated, so such a photo is refused when its header is read (moderation, before Rekognition or any model) and at
 * checkout, like a small one. The limit of Stability AI's image services on Bedrock, Stable Image Control Structure
 * included: "The aspect ratio must be between 1:2.5 and 2.5:1" (Stability AI API reference, Control → Structure,
 * `image` validation rules; the Bedrock user guide's Stability AI Image Services request fields; docs/bedrock.md).
 * Every style, engine ones too: any style may be drawn by a model (a setting), and an order must never be refunded
 * for its photo's shape.
 */
export const MAX_ASPECT_RATIO = 2.5;

/**
 * Why a photo of this size cannot be ordered, as the end of "This photo ..." (too small, or too long and narrow for
 * the models); null when it can be.
 */
export function photoSizeProblem(size: { width?: number; height?: number }): string | null {
  const { width, height } = size;
  if (typeof width !== 'number' || typeof height !== 'number') return null;
  const short = Math.min(width, height);
  if (short < MIN_SHORT_SIDE)
    return `is too small (${width}×${height} px): photos need at least ${MIN_SHORT_SIDE} px on their short side`;
  if (Math.max(width, height) > short * MAX_ASPECT_RATIO)
    return `is too long and narrow (${width}×${height} px): a photo's long side can be at most ${MAX_ASPECT_RATIO} times its short side`;
  return null;
}

/** Images above this many pixels are refused before decoding (decompression bombs). */
export const MAX_PIXELS = 40_000_000;
/** Uploads must be smaller than this (spec: under 10 MB); the same limit the browser enforces. */
export const MAX_UPLOAD_BYTES = MAX_FILE_BYTES;

/** A photo's identity: the SHA-256 of its bytes, in lowercase hex. */
export const IMAGE_HASH_RE = /^[0-9a-f]{64}$/;
export const isImageHash = (value: unknown): value is string => typeof value === 'string' && IMAGE_HASH_RE.test(value);

/** JPEG or PNG by the bytes (the browser's sniffer, narrowed to what the service accepts). */
export function sniffType(bytes: Uint8Array): AcceptedType | null {
  const type = sniffImageType(bytes);
  return isAcceptedType(type) ? type : null;
}

export interface ImageInfo {
  type: AcceptedType;
  width: number;
  height: number;
}

/** Type and dimensions from the header: PNG's IHDR or JPEG's first start-of-frame marker. Null if unreadable. */
export function readImageInfo(bytes: Uint8Array): ImageInfo | null {
  const type = sniffType(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') {
    if (bytes.length < 24) return null;
    return { type, width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (type === 'image/jpeg') {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        i += 2;
        continue;
      }
      const length = view.getUint16(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { type, height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + length;
    }
    return null;
  }
  return null;
}
