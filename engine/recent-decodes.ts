/**
 * The last photos decoded for an order, by their bytes' SHA-256 and the decode's options: an order renders each photo
 * in every style it bought, and gates each render against the photo. A paid decode (the photo enlarged or shrunk to
 * 2048 px by lanczos3) costs 100-200 ms of CPU each time, and the gate's full-size decode of a 12 MP photo as much
 * again. The pixels are shared read-only (styles and face keeping write their own buffers, the gate only reads).
 */
import { createHash } from 'node:crypto';
import { type DecodedImage, type DecodeOptions, decodeInput } from './image-io';

const recentDecodes = new Map<string, Promise<DecodedImage>>();
/** Two photos' paid and full-size decodes: an order's concurrent items may be of two photos. */
const RECENT_DECODES = 4;

/** decodeInput, shared with the recent calls for the same bytes and options. */
export function decodeShared(bytes: Buffer, opts: DecodeOptions = {}): Promise<DecodedImage> {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const key = `${digest}:${opts.maxSize}:${opts.maxPixels}:${opts.enlarge === true}`;
  let decoded = recentDecodes.get(key);
  if (decoded)
    recentDecodes.delete(key); // re-inserted below: most recently used last
  else {
    decoded = decodeInput(bytes, opts);
    decoded.catch(() => recentDecodes.delete(key)); // a refused photo is refused again, not remembered
  }
  recentDecodes.set(key, decoded);
  if (recentDecodes.size > RECENT_DECODES) recentDecodes.delete(recentDecodes.keys().next().value as string);
  return decoded;
}
