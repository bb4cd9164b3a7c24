/**
 * ToonZap rendering engine: photo -> cartoon style, deterministic, CPU only.
 *
 * Public API: decodeInput, renderStyle, renderThumbnail, renderAllThumbnails, ImageInputError,
 * plus the style catalogue re-exported from ./styles (which is importable without sharp).
 */

import { PAID_LONG_SIDE, PREVIEW_LONG_SIDE } from '../domain/image-format';
import { STYLE_IDS, type StyleId } from '../domain/styles';
import { type Analysis, DETAIL_LONG, hasPeople } from './analysis';
import { analyzeImage, describeFaces } from './analysis-thread';
import { applyStyle, requireStyle, type StyledPixels } from './apply';
import { ImageInputError } from './errors';
import { type KeptRender, keepFaces } from './face-keep';
import { type DecodedImage, type DecodeOptions, decodeInput, shrinkDecoded } from './image-io';
import { encodeOutput } from './output';
import type { Image8 } from './raster';
import { decodeShared } from './recent-decodes';
import { STYLE_ENGINES } from './renderers';
import { applyStyles } from './style-pool';

export { getStyle, isStyleId, STYLE_IDS, STYLES, type StyleId, type StyleInfo } from '../domain/styles';
export { ANALYSIS_LONG, type Analysis, analysisFromJson, analysisToJson, DETAIL_LONG, hasPeople } from './analysis';
export { analyzeImage, closeAnalysisThread, warmAnalysisThread } from './analysis-thread';
export { applyStyle, type StyledPixels } from './apply';
export { ImageInputError } from './errors';
export { type FaceKept, KEEP_TARGET, type KeptRender, keepFaces } from './face-keep';
export { type DecodedImage, type DecodeOptions, decodeInput, sniffFormat } from './image-io';
export { encodeOutput, normaliseImage } from './output';
export { closeStylePool, stylesRenderedByWorkers, warmStylePool } from './style-pool';

export const DEFAULT_MAX_SIZE = PAID_LONG_SIDE;
export const DEFAULT_THUMBNAIL_SIZE = PREVIEW_LONG_SIDE;

export interface RenderOptions {
  /** Long side of the output in px (default 2048). A larger photo is shrunk to it. */
  maxSize?: number;
  /**
   * Paid renders: a photo smaller than maxSize is enlarged to it (sharp lanczos3) before styling, so the image
   * sold has the paid size. Without it a smaller photo renders at its own size.
   */
  enlarge?: boolean;
  /** Decompression-bomb guard (default 40 MP). */
  maxPixels?: number;
  /** The photo's analysis (analyzePhoto; e.g. cached). Omitted: computed here. null: render without one. */
  analysis?: Analysis | null;
}

export interface ThumbnailOptions {
  /** Long side in px (default 256). Never upscaled. */
  size?: number;
  /** Draw the 'ToonZap' mark (free previews). Default false. */
  watermark?: boolean;
  maxPixels?: number;
  /**
   * As RenderOptions.analysis; or a promise of it; or a source that may compute it from the preview's own decode (the
   * model server's cache: read, else computed with `compute` and kept).
   */
  analysis?: Analysis | null | Promise<Analysis | null> | PreviewAnalysisSource;
}

/** Where a preview's analysis comes from when the caller may not have it: `compute` analyses the preview's decode. */
export type PreviewAnalysisSource = (compute: () => Promise<Analysis>) => Promise<Analysis>;

function checkSize(v: number | undefined, def: number, what: string): number {
  const n = v ?? def;
  if (!Number.isInteger(n) || n < 16 || n > 8192)
    throw new ImageInputError(`${what} must be an integer between 16 and 8192.`);
  return n;
}

const finish = encodeOutput;

/**
 * The analysis a render uses: the one given (null: none), else analyzePhoto's. The render's own decode is used
 * when it is the whole photo at its own size, no larger than the detail size (the pixels analyzePhoto would
 * decode); a preview of a larger photo decodes it again at the detail size, so its analysis (cached for the paid
 * render) finds the small faces too.
 */
async function analysisFor(
  bytes: Buffer,
  img: DecodedImage,
  opts: { analysis?: Analysis | null; maxPixels?: number },
): Promise<Analysis | null> {
  if (opts.analysis !== undefined) return opts.analysis;
  // a paid render's: every small face looked for
  if (img.width === img.sourceWidth && Math.max(img.width, img.height) <= DETAIL_LONG)
    return analyzeImage(img, { thorough: true });
  return analyzePhoto(bytes, { maxPixels: opts.maxPixels, thorough: true });
}

/**
 * Render one style at up to `maxSize` px (long side). Returns PNG bytes without metadata. Every face the analysis
 * found is kept recognisable, with its skin tone (face-keep.ts; FaceRes in the analysis thread); previews
 * (renderThumbnail, renderAllThumbnails) are not checked: they are small, free and must be fast.
 */
export async function renderStyle(bytes: Buffer, styleId: string, opts: RenderOptions = {}): Promise<Buffer> {
  return (await renderStyleImage(bytes, styleId, opts)).png;
}

/**
 * renderStyle's PNG and the pixels it encodes (the engine server's quality gate measures those: no decoding of its
 * own PNG).
 */
export async function renderStyleImage(
  bytes: Buffer,
  styleId: string,
  opts: RenderOptions = {},
): Promise<{ png: Buffer; image: Image8 }> {
  requireStyle(styleId);
  const maxSize = checkSize(opts.maxSize, DEFAULT_MAX_SIZE, 'maxSize');
  const img = await decodeShared(bytes, { maxSize, maxPixels: opts.maxPixels, enlarge: opts.enlarge });
  const analysis = await analysisFor(bytes, img, opts);
  const styled = applyStyle(img, styleId, analysis);
  const kept = await keepStyledFaces(img, styleId, styled, analysis);
  const image = { data: kept.data, width: styled.width, height: styled.height };
  return { png: await finish(image, false, false), image };
}

/**
 * renderStyle's face keeping (face-keep.ts) of a style's render of `img`: FaceRes in the analysis thread, a grid
 * style's faces kept on its grid.
 */
export function keepStyledFaces(
  img: Image8,
  styleId: string,
  styled: Image8,
  analysis: Analysis | null | undefined,
): Promise<KeptRender> {
  const scene = hasPeople(analysis) ? analysis : undefined;
  const grid = STYLE_ENGINES[requireStyle(styleId)].keepGrid?.(img.width, img.height, scene);
  return keepFaces(img, styled, analysis, describeFaces, grid);
}

/**
 * A preview's photo at its size and its analysis. When the analysis is given, only the preview's size is decoded
 * (shrink-on-load for JPEG). When it may have to be computed, the photo is decoded once, at the detail size: the
 * analysis runs on that decode and the preview is shrunk from it (a second decode of a 12 MP JPEG costs 60 ms of
 * CPU). A preview's analysis is not thorough: small faces beside large ones, a few pixels at its size, are left to
 * the paid render's (Analysis.thorough).
 */
async function previewInput(
  bytes: Buffer,
  size: number,
  opts: ThumbnailOptions,
): Promise<{ img: DecodedImage; analysis: Analysis | null }> {
  const given = opts.analysis;
  if (given !== undefined && typeof given !== 'function') {
    Promise.resolve(given).catch(() => undefined); // observed below, after the decode (which fails first on bad bytes)
    const img = await decodeInput(bytes, { maxSize: size, maxPixels: opts.maxPixels });
    return { img, analysis: await given };
  }
  const detail = decodeInput(bytes, { maxSize: DETAIL_LONG, maxPixels: opts.maxPixels });
  const compute = async () => analyzeImage(await detail, { thorough: false });
  const analysis = given ? given(compute) : compute();
  analysis.catch(() => undefined); // observed below, after the decode
  const img = await shrinkDecoded(await detail, size);
  return { img, analysis: await analysis };
}

/** Render a small preview (default 256 px long side), optionally watermarked. */
export async function renderThumbnail(bytes: Buffer, styleId: string, opts: ThumbnailOptions = {}): Promise<Buffer> {
  requireStyle(styleId);
  const size = checkSize(opts.size, DEFAULT_THUMBNAIL_SIZE, 'size');
  const { img, analysis } = await previewInput(bytes, size, opts);
  return finish(applyStyle(img, styleId, analysis), opts.watermark ?? false, false);
}

/**
 * Render every catalogue style as a thumbnail. The input is decoded ONCE (previewInput: with the analysis when it is
 * computed here); all styles run on the shared small buffer, and PNG encoding (libuv thread pool) overlaps with
 * rendering the next style on the main thread.
 */
export async function renderAllThumbnails(
  bytes: Buffer,
  opts: ThumbnailOptions = {},
): Promise<{ styleId: StyleId; png: Buffer }[]> {
  const size = checkSize(opts.size, DEFAULT_THUMBNAIL_SIZE, 'size');
  const { img, analysis } = await previewInput(bytes, size, opts);
  return renderAllFromDecoded(img, opts.watermark ?? false, analysis);
}

/**
 * Same as renderAllThumbnails for an already decoded (and already small) image. Styles render in
 * parallel on the style pool's worker threads where there are spare cores; each PNG encode (libuv
 * thread pool) starts as soon as its pixels exist. Output order is the catalogue order.
 */
export async function renderAllFromDecoded(
  img: DecodedImage | StyledPixels,
  watermark = false,
  analysis?: Analysis | null,
): Promise<{ styleId: StyleId; png: Buffer }[]> {
  const encoded = new Map<StyleId, Promise<Buffer>>();
  await applyStyles(
    img,
    STYLE_IDS,
    (styleId, data) => {
      const p = finish({ data, width: img.width, height: img.height }, watermark, false);
      p.catch(() => undefined); // observed below; avoids an unhandled rejection while others render
      encoded.set(styleId, p);
    },
    analysis,
  );
  return Promise.all(
    STYLE_IDS.map(async (styleId) => ({ styleId, png: await (encoded.get(styleId) as Promise<Buffer>) })),
  );
}

/**
 * The photo's analysis (people, faces): decoded at the detail size once, then the neural models. `thorough`: small
 * faces looked for everywhere (Analysis.thorough), as a paid render needs.
 */
export async function analyzePhoto(
  bytes: Buffer,
  opts: { maxPixels?: number; thorough?: boolean } = {},
): Promise<Analysis> {
  const img = await decodeInput(bytes, { maxSize: DETAIL_LONG, maxPixels: opts.maxPixels });
  return analyzeImage(img, { thorough: opts.thorough });
}

export type { DecodeOptions as DecodeInputOptions };
