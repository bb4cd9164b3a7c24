import { ImageInputError } from './errors';
import type { Image8 } from './raster';
import { RENDERERS } from './renderers';
import { isStyleId, STYLE_IDS, type StyleId } from '../domain/styles';

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
 * Free of sharp so worker threads can load it cheaply.
 */
export function applyStyle(img: Image8, styleId: string): StyledPixels {
  const id = requireStyle(styleId);
  return { data: RENDERERS[id](img), width: img.width, height: img.height };
}
