import type { StyleId } from '../../domain/styles';
import type { Scene } from '../analysis/scene';
import { anime } from './anime';
import { comic } from './comic';
import type { StyleFn } from './common';
import { oilPaint } from './oil-paint';
import { pixelArt, pixelBlock } from './pixel-art';
import { popArt } from './pop-art';
import { sketch } from './sketch';
import { threeD } from './three-d';
import { watercolor } from './watercolor';

/** What the engine knows of one catalogue style (domain/styles.ts holds its name and description). */
export interface StyleEngine {
  readonly render: StyleFn;
  /** Relative cost at thumbnail size (measured by `npm run bench`): style-pool.ts balances its threads by it. */
  readonly cost: number;
  /**
   * A style drawn on a grid: the cell size (output px) a face kept by face-keep.ts is redrawn on, so it stays
   * blocks like the rest.
   */
  readonly keepGrid?: (w: number, h: number, scene?: Scene) => number;
}

/** Catalogue style id -> its renderer and cost. The type makes every catalogue style have exactly one entry. */
export const STYLE_ENGINES: Readonly<Record<StyleId, StyleEngine>> = {
  '3d': { render: threeD, cost: 18 },
  anime: { render: anime, cost: 21 },
  comic: { render: comic, cost: 19 },
  sketch: { render: sketch, cost: 6 },
  watercolor: { render: watercolor, cost: 10 },
  'pop-art': { render: popArt, cost: 17 },
  // a kept face on cells half the size: twice the art pixels across it, still pixel art
  'pixel-art': { render: pixelArt, cost: 9, keepGrid: (w, h, scene) => pixelBlock(w, h, scene) / 2 },
  'oil-paint': { render: oilPaint, cost: 10 },
};

export type { StyleFn } from './common';
