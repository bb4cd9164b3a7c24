import type { StyleId } from '../../domain/styles';
import { anime } from './anime';
import { comic } from './comic';
import type { StyleFn } from './common';
import { oilPaint } from './oil-paint';
import { pixelArt } from './pixel-art';
import { popArt } from './pop-art';
import { sketch } from './sketch';
import { threeD } from './three-d';
import { watercolor } from './watercolor';

/** Style id -> renderer. Every catalogue entry must have one (checked by the type). */
export const RENDERERS: Readonly<Record<StyleId, StyleFn>> = {
  '3d': threeD,
  anime,
  comic,
  sketch,
  watercolor,
  'pop-art': popArt,
  'pixel-art': pixelArt,
  'oil-paint': oilPaint,
};

export type { StyleFn } from './common';
