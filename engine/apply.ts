import { isStyleId, STYLE_IDS, type StyleId } from '../domain/styles';
import { type Analysis, hasPeople } from './analysis/types';
import { ImageInputError } from './errors';
import type { Image8 } from './raster';
import { STYLE_ENGINES } from './renderers';

/** Styled interleaved RGB8 pixels (same size as the input). */
export interface StyledPixels {
  data: Buffer;
  width: number;
  height: number;
}

export function requireStyle(styleId: string): StyleId {
  if (!isStyleId(styleId)) {
    throw new ImageInputError(`Unknown style '${styleId}'. Known styles: ${STYLE_IDS.join(', ')}.`);
  }
  return styleId;
}

/**
 * Apply a style to already decoded RGB pixels (same size out). Synchronous, pure, deterministic.
 * Free of sharp and tfjs so worker threads can load it cheaply. `analysis` (from analyzePhoto) lets the style
 * treat people and faces as such; one that found nobody renders the same bytes as none.
 */
export function applyStyle(img: Image8, styleId: string, analysis?: Analysis | null): StyledPixels {
  const id = requireStyle(styleId);
  const scene = hasPeople(analysis) ? analysis : undefined;
  return { data: STYLE_ENGINES[id].render(img, scene), width: img.width, height: img.height };
}
