/**
 * The engine's golden renders: every style on two fixture photos (a portrait with a face, a cat without people) at
 * 256 and 1024 px, each pinned by the SHA-256 of its raw RGB pixels in golden.json: at 256 px as a preview renders
 * it, at 1024 px as renderStyle does (face keeping included, engine/face-keep.ts). The inputs are decoded once by
 * sharp at their stored size (PNG decoding is exact) and resized by the engine's own JS resampler, so no libvips
 * SIMD path (which may round differently on another CPU) stands between the fixture and the hash; what is hashed
 * is exactly what the styles compute. Shared by golden.test.ts and `npm run engine:golden`.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { STYLE_IDS, type StyleId } from '../../domain/styles';
import { type Analysis, analyzeImage, applyStyle, keepStyledFaces } from '../../engine';
import { fromRGB8, type Image8, resizeRaster, toRGB8, workSize } from '../../engine/raster';
import { photo } from '../fixtures/photos';

export const GOLDEN_FILE = path.join(__dirname, 'golden.json');
export const GOLDEN_PHOTOS = ['astronaut.png', 'chelsea.png'] as const;
export const GOLDEN_SIZES = [256, 1024] as const;

export interface GoldenRender {
  key: string;
  style: StyleId;
  image: Image8;
}

/** `style/photo@size`: the name a render has in golden.json. */
export const goldenKey = (style: StyleId, name: string, size: number) => `${style}/${name}@${size}`;

export const hashImage = (img: Image8) =>
  createHash('sha256').update(`${img.width}x${img.height}:`).update(img.data).digest('hex');

/** A fixture photo as RGB8 with its long side at `size` (area average down, bilinear up). */
async function fixtureAt(name: string, size: number): Promise<Image8> {
  const { data, info } = await sharp(photo(name)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const long = Math.max(info.width, info.height);
  const { w, h } =
    long > size
      ? workSize(info.width, info.height, size)
      : { w: Math.round((info.width * size) / long), h: Math.round((info.height * size) / long) };
  return { data: toRGB8(resizeRaster(fromRGB8(data, info.width, info.height), w, h)), width: w, height: h };
}

/** Render every golden case (styles in catalogue order), calling `each` as each one is ready. */
export async function renderGolden(
  each: (r: GoldenRender) => void,
  styles: readonly StyleId[] = STYLE_IDS,
): Promise<void> {
  for (const name of GOLDEN_PHOTOS) {
    // one analysis per photo, at the analysis size, as a preview batch and a paid render share it
    let analysis: Analysis | undefined;
    for (const size of GOLDEN_SIZES) {
      const input = await fixtureAt(name, size);
      analysis ??= await analyzeImage(input);
      for (const style of styles) {
        const styled = applyStyle(input, style, analysis);
        const image =
          size === 256 ? styled : { ...styled, data: (await keepStyledFaces(input, style, styled, analysis)).data };
        each({ key: goldenKey(style, name, size), style, image });
      }
    }
  }
}

export interface GoldenFile {
  about: string;
  renders: Record<string, string>;
}

export function readGolden(file = GOLDEN_FILE): GoldenFile | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as GoldenFile) : undefined;
}
