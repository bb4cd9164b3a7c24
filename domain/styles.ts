/**
 * ToonZap style catalogue. Pure domain data: the engine, the handlers and the frontend import it (no sharp, no AWS).
 * Adding a style: its entry here, its renderer in engine/renderers/ with one entry (renderer and cost) in
 * engine/renderers/index.ts (the type fails until it has one), its default thumbnail (npm run engine:thumbnails)
 * and its golden renders (npm run engine:golden).
 */

export type StyleId = '3d' | 'anime' | 'comic' | 'sketch' | 'watercolor' | 'pop-art' | 'pixel-art' | 'oil-paint';

export interface StyleInfo {
  /** Stable identifier used in URLs, jobs and file names. */
  readonly id: StyleId;
  /** User-facing name. */
  readonly name: string;
  /** One-sentence user-facing description. */
  readonly description: string;
  /** Short preview text (a few words) for cards and tooltips. */
  readonly preview: string;
}

export const STYLES: readonly StyleInfo[] = Object.freeze([
  {
    id: '3d',
    name: '3D Animation',
    description:
      'Smooth, softly lit, warm and saturated, like a still from an animated feature film, with a gentle depth-of-field background.',
    preview: 'Soft 3D movie look',
  },
  {
    id: 'anime',
    name: 'Anime',
    description: 'Clean cel shading with flat bright colours and fine ink outlines.',
    preview: 'Cel-shaded anime',
  },
  {
    id: 'comic',
    name: 'Comic Book',
    description: 'Bold black inking, punchy flat colours and halftone-dot shadows.',
    preview: 'Inked comic panel',
  },
  {
    id: 'sketch',
    name: 'Pencil Sketch',
    description: 'Graphite pencil lines and soft hatching on textured paper.',
    preview: 'Hand-drawn pencil',
  },
  {
    id: 'watercolor',
    name: 'Watercolor',
    description: 'Loose transparent washes with pigment-darkened edges on cold-press paper.',
    preview: 'Soft paint washes',
  },
  {
    id: 'pop-art',
    name: 'Pop Art',
    description: 'Screen-print poster in bold pop colours with Ben-Day dots and heavy outlines.',
    preview: 'Bold screen print',
  },
  {
    id: 'pixel-art',
    name: 'Pixel Art',
    description: 'Chunky pixels and a limited retro game palette.',
    preview: 'Retro 16-bit pixels',
  },
  {
    id: 'oil-paint',
    name: 'Oil Painting',
    description: 'Thick, directional brush strokes with rich colour and canvas texture.',
    preview: 'Impasto brushwork',
  },
] satisfies StyleInfo[]) as readonly StyleInfo[];

const BY_ID: ReadonlyMap<string, StyleInfo> = new Map(STYLES.map((s) => [s.id, s]));

export function isStyleId(id: unknown): id is StyleId {
  return typeof id === 'string' && BY_ID.has(id);
}

export function getStyle(id: string): StyleInfo | undefined {
  return BY_ID.get(id);
}

export const STYLE_IDS: readonly StyleId[] = STYLES.map((s) => s.id);
