import type { GeneratedImage } from '../../domain/contract-shapes';
import { imageFileName } from '../../domain/download-names';
import { getStyle, STYLES } from '../../domain/styles';
import type { GenerationItem, GenerationRecord } from './generations';
import { mediaKey, presignDownload } from './media';
import { isGenerative } from './renderer';

const styleOrder = new Map<string, number>(STYLES.map((s, i) => [s.id, i]));

/** An order's delivered items (optionally of one photo), photo by photo in order, styles in catalogue order. */
export function deliveredItems(generation: GenerationRecord, hash?: string): GenerationItem[] {
  const items = Object.values(generation.items);
  const hashOrder = [...new Set(items.map((i) => i.image_hash))];
  return items
    .filter((i) => i.status === 'done' && (hash === undefined || i.image_hash === hash))
    .sort(
      (a, b) =>
        hashOrder.indexOf(a.image_hash) - hashOrder.indexOf(b.image_hash) ||
        (styleOrder.get(a.style) ?? 0) - (styleOrder.get(b.style) ?? 0),
    );
}

/**
 * An order's delivered images as the API hands them out: each with a fresh presigned link (they expire) and its
 * photo's share id. `described` adds the style's description and whether an AI model drew it (image pages).
 */
export function deliveredImages(
  generation: GenerationRecord,
  opts: { hash?: string; style?: string; described?: boolean } = {},
): Promise<GeneratedImage[]> {
  const items = deliveredItems(generation, opts.hash).filter((i) => opts.style === undefined || i.style === opts.style);
  return Promise.all(
    items.map(async (i) => {
      const style = getStyle(i.style);
      const styleName = style?.name ?? i.style;
      return {
        url: await presignDownload(
          mediaKey.output(generation.order_id, i.image_hash, i.style),
          imageFileName(styleName, i.image_hash, 'image/png'),
        ),
        styleName,
        styleId: i.style,
        imageHash: i.image_hash,
        shareId: generation.share_ids?.[i.image_hash] ?? '',
        ...(opts.described ? { description: style?.description, aiGenerated: isGenerative(i.style) } : {}),
      };
    }),
  );
}
