import { faceRegionsAt, featureStrokes, frameScale, type Scene, StrokeRows } from '../analysis/scene';
import { downscalePlane } from '../filters/blur';
import { saturate, tone } from '../filters/color';
import { dogField } from '../filters/lines';
import { assignPalette, kmeansPalette, majorityFilter, paintLabels } from '../filters/quantize';
import { pixelMath } from '../pixel-math';
import { type Image8, luma, type Raster, resizeRaster } from '../raster';
import { abstractRegions, toWork } from './common';

// bound once at load (see pixel-math.ts)
const { byte } = pixelMath;

/** Pixel block size (output px per art pixel) for an image: about 72 art pixels on the long side. */
export function pixelBlock(w: number, h: number, scene?: Scene): number {
  const block = Math.max(2, Math.round(Math.max(w, h) / 72));
  if (!scene || scene.faces.length === 0) return block;
  // a face gets at least FACE_CELLS art pixels across (up to 160 on the long side): eyes, brows and mouth
  // then have cells of their own instead of dissolving into one skin-coloured patch
  const faceW = Math.max(...scene.faces.map((f) => f.box[2])) * frameScale(scene, w);
  const finest = Math.max(2, Math.ceil(Math.max(w, h) / 160));
  return Math.max(finest, Math.min(block, Math.floor(faceW / FACE_CELLS)));
}

const FACE_CELLS = 18;

/**
 * Pixel art: texture flattened first (edge-preserving abstraction), area-averaged to a coarse grid,
 * a limited 16-colour palette with isolated specks removed, and dark sprite outlines where the
 * work-resolution DoG finds an edge inside a cell; then nearest-neighbour blocks (one flat colour each).
 */
export function pixelArt(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const block = pixelBlock(w, h, scene);
  const gw = Math.ceil(w / block);
  const gh = Math.ceil(h / block);
  const { work, s } = toWork(img, { smooth: true });
  const ww = work.width;
  const wh = work.height;
  abstractRegions(work, s, 0.8);
  // outline evidence per cell: the DoG (dark side of edges) at about half a cell's width, cell-averaged
  const cell = ww / gw;
  const ink = downscalePlane(dogField(luma(work), ww, wh, Math.max(0.7, 0.45 * cell)), ww, wh, gw, gh);
  const small = resizeRaster(work, gw, gh);
  tone(small, 0.95, 1.12, 0.5, 0);
  saturate(small, 1.45);
  const skinCells = scene && skinTones(small, scene);
  const pal = kmeansPalette(small, 16, 12, 3);
  const labels = majorityFilter(assignPalette(small, pal), gw, gh, 1);
  paintLabels(labels, pal, small);
  if (skinCells) {
    // the face's skin in two tones of its own (lit, shaded): the 16-colour palette otherwise splits it into
    // whatever nearby entries exist, greys from the backdrop included
    const { mask, shade, colours } = skinCells;
    for (let i = 0; i < gw * gh; i++) {
      if (!mask[i]) continue;
      const c = colours[shade[i]];
      small.r[i] = c[0];
      small.g[i] = c[1];
      small.b[i] = c[2];
    }
  }
  const outline = new Uint8Array(gw * gh);
  const T = 0.018;
  for (let y = 0, i = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++, i++) {
      if (ink[i] < T) continue;
      // lines, not specks: keep an outline cell only if an 8-neighbour is one too
      let linked = false;
      for (let dy = -1; dy <= 1 && !linked; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= gh) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if ((dx || dy) && xx >= 0 && xx < gw && ink[yy * gw + xx] >= T) {
            linked = true;
            break;
          }
        }
      }
      if (linked) outline[i] = 1;
    }
  }
  if (scene) {
    // facial features drawn on the grid: lids, brows, mouth line as outline cells, and a pupil per open eye
    const strokes = new StrokeRows(featureStrokes(scene, gw, 1), gw);
    const row = new Float32Array(gw);
    for (let y = 0; y < gh; y++) {
      strokes.row(y, row);
      for (let x = 0; x < gw; x++) if (row[x] >= 0.45) outline[y * gw + x] = 1;
    }
    const k = frameScale(scene, gw);
    for (const f of scene.faces) {
      for (const e of [f.eyes.left, f.eyes.right]) {
        if (e.open < 0.16) continue;
        const x = Math.min(gw - 1, Math.max(0, Math.floor(e.center[0] * k)));
        const y = Math.min(gh - 1, Math.max(0, Math.floor(e.center[1] * k)));
        outline[y * gw + x] = 1;
      }
    }
  }
  for (let i = 0; i < gw * gh; i++) {
    if (!outline[i]) continue;
    // a darker shade of the cell's own colour, as sprite artists outline
    small.r[i] = small.r[i] * 0.35 + 0.02;
    small.g[i] = small.g[i] * 0.35 + 0.02;
    small.b[i] = small.b[i] * 0.38 + 0.03;
  }
  const cells = Buffer.allocUnsafe(gw * gh * 3);
  for (let i = 0, j = 0; i < gw * gh; i++, j += 3) {
    cells[j] = byte(small.r[i]);
    cells[j + 1] = byte(small.g[i]);
    cells[j + 2] = byte(small.b[i]);
  }
  const out = Buffer.allocUnsafe(w * h * 3);
  for (let y = 0; y < h; y++) {
    const sy = ((y / block) | 0) * gw;
    for (let x = 0, j = y * w * 3; x < w; x++, j += 3) {
      const si = (sy + ((x / block) | 0)) * 3;
      out[j] = cells[si];
      out[j + 1] = cells[si + 1];
      out[j + 2] = cells[si + 2];
    }
  }
  return out;
}

/**
 * The cells of the faces' skin (the oval minus eyes, brows and lips) and, for each, lit (0) or shaded (1) by its
 * luma against the skin's median, with the mean colour of each half. Undefined when no cell is skin.
 */
function skinTones(
  small: Raster,
  scene: Scene,
): { mask: Uint8Array; shade: Uint8Array; colours: [number, number, number][] } | undefined {
  const { width: gw, height: gh } = small;
  const { skin } = faceRegionsAt(scene, gw, gh, 0);
  const mask = new Uint8Array(gw * gh);
  const L = luma(small);
  const lums: number[] = [];
  for (let i = 0; i < gw * gh; i++) {
    if (skin[i] < 0.5) continue;
    mask[i] = 1;
    lums.push(L[i]);
  }
  if (lums.length < 4) return undefined;
  lums.sort((a, b) => a - b);
  const median = lums[lums.length >> 1];
  const shade = new Uint8Array(gw * gh);
  const sums = [new Float64Array(4), new Float64Array(4)];
  for (let i = 0; i < gw * gh; i++) {
    if (!mask[i]) continue;
    const t = L[i] < median ? 1 : 0;
    shade[i] = t;
    sums[t][0] += small.r[i];
    sums[t][1] += small.g[i];
    sums[t][2] += small.b[i];
    sums[t][3]++;
  }
  const colours = sums.map(
    (a) => [a[0] / Math.max(1, a[3]), a[1] / Math.max(1, a[3]), a[2] / Math.max(1, a[3])] as [number, number, number],
  );
  return { mask, shade, colours };
}
