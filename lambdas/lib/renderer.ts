import { type GenerativeStyleSettings, type GenerativeStyles, validateGenerativeStyles } from '../../domain/generative';
import { isStyleId, STYLE_IDS } from '../../domain/styles';
import type { ImageRecord } from './images';
import { settings } from './settings';

/**
 * The one place that decides which renderer draws a style: the engine, or a Bedrock model when the configuration
 * (lib/config.ts → GENERATIVE_STYLES) names the style. The order pipeline, the previews and the catalogue API all
 * ask here. Pure (no sharp, no SDK calls), so route handlers can use it.
 */
export type Renderer =
  | { kind: 'engine'; id: 'engine' }
  | { kind: 'bedrock'; id: string; settings: GenerativeStyleSettings };

/** The engine (SageMaker endpoint): every style without a configured model, and the quality gate's face check. */
export const ENGINE_RENDERER: Renderer = { kind: 'engine', id: 'engine' };

let cache: { raw: string; styles: GenerativeStyles } | undefined;

export function generativeStyles(): GenerativeStyles {
  const raw = settings.generativeStyles;
  if (cache?.raw !== raw)
    cache = { raw, styles: validateGenerativeStyles(JSON.parse(raw) as Record<string, unknown>, isStyleId) };
  return cache.styles;
}

export function rendererFor(style: string): Renderer {
  const s = isStyleId(style) ? generativeStyles()[style] : undefined;
  // The model id names the renderer: a preview made by another model is not this renderer's preview.
  return s ? { kind: 'bedrock', id: `bedrock:${s.modelId}`, settings: s } : ENGINE_RENDERER;
}

export const isGenerative = (style: string) => rendererFor(style).kind === 'bedrock';

/** Which renderer made a stored preview (records from before renderers were recorded: the engine). */
export function previewRenderer(image: ImageRecord | null, style: string): string | null {
  if (!image?.previews?.includes(style)) return null;
  return image.preview_renderers?.[style] ?? 'engine';
}

/** UTC day of the preview budget, e.g. "2026-11-23". */
export const budgetDay = (now = new Date()) => now.toISOString().slice(0, 10);

/** Styles whose preview budget ran out today for this photo: their tiles show the static sample. */
export function pausedPreviews(image: ImageRecord | null, day = budgetDay()): string[] {
  return image?.previews_paused?.day === day ? image.previews_paused.styles : [];
}

/**
 * Styles still to preview for a photo: no preview by the style's current renderer, not paused for today, and not
 * refused by that renderer for this photo.
 * Made once per (photo, style, renderer) and reused.
 */
export function pendingPreviews(
  image: ImageRecord | null,
  styles: readonly string[] = STYLE_IDS,
  day = budgetDay(),
): string[] {
  const paused = new Set(pausedPreviews(image, day));
  return styles.filter((s) => {
    const id = rendererFor(s).id;
    return previewRenderer(image, s) !== id && !paused.has(s) && image?.previews_refused?.[s] !== id;
  });
}
