import { ddb } from './aws';
import type { ImageRecord } from './images';
import { updateCommand } from './item-update';

/**
 * Generated images that belong to a paid, fulfilled order item, recorded on the photo's record (a string set
 * `outputs` of style ids). Only these are served by the image API: an object under outputs/ alone proves nothing.
 */
export async function recordOutput(hash: string, style: string): Promise<void> {
  await ddb().send(
    updateCommand('images', hash, { add: { outputs: new Set([style]) }, condition: 'attribute_exists(image_hash)' }),
  );
}

/** Style ids with a delivered output for the photo (the document client reads string sets as Set). */
export function deliveredStyles(image: ImageRecord | null): Set<string> {
  const raw = (image as (ImageRecord & { outputs?: Set<string> | string[] }) | null)?.outputs;
  return new Set(raw ? [...raw] : []);
}
