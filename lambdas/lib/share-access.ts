import { getStyle, type StyleInfo } from '../../domain/styles';
import { deliveredItems } from './delivered';
import { type GenerationRecord, getGeneration } from './generations';
import { getShare, type ShareRecord } from './shares';

export interface OpenShare {
  share: ShareRecord;
  generation: GenerationRecord;
  /** The delivered styles of the share's photo in its order, catalogue order. */
  styles: StyleInfo[];
}

/**
 * What a share link opens: its order's delivered images of its photo, while the order's images exist (an erased
 * order's share rows are deleted; a generation marked erased opens nothing either). null: not found.
 */
export async function openShare(shareId: string): Promise<OpenShare | null> {
  const share = await getShare(shareId);
  const generation = share ? await getGeneration(share.order_id) : null;
  if (!share || !generation || generation.erased_at) return null;
  const styles = deliveredItems(generation, share.image_hash).flatMap((i) => getStyle(i.style) ?? []);
  return styles.length ? { share, generation, styles } : null;
}
