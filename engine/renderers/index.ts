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

/** What the engine knows of one catalogue style (domain/styles.ts holds its name and description). */
export interface StyleEngine {
  readonly render: StyleFn;
  /** Relative cost at thumbnail size (measured by `npm run bench`): style-pool.ts balances its threads by it. */
  readonly cost: number;
}

/** Catalogue style id -> its renderer and cost. The type makes every catalogue style have exactly one entry. */
export const STYLE_ENGINES: Readonly<Record<StyleId, StyleEngine>> = {
  '3d': { render: threeD, cost: 18 },
  anime: { render: anime, cost: 21 },
  comic: { render: comic, cost: 19 },
  sketch: { render: sketch, cost: 6 },
  watercolor: { render: watercolor, cost: 10 },
  'pop-art': { render: popArt, cost: 17 },
  'pixel-art': { render: pixelArt, cost: 9 },
  'oil-paint': { render: oilPaint, cost: 10 },
};

export type { StyleFn } from './common';
