import { saturate, tone } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { assignPalette, kmeansPalette, paintLabels } from '../filters/quantize';
import { byte, type Image8, luma, resizeRaster } from '../raster';
import { toWork } from './common';

/** Pixel block size (output px per art pixel) for an image: about 72 art pixels on the long side. */
export function pixelBlock(w: number, h: number): number {
  return Math.max(2, Math.round(Math.max(w, h) / 72));
}

/**
 * Pixel art: area-averaged to a coarse grid, limited 16-colour palette, dark sprite outlines
 * on strong edges, then nearest-neighbour blocks (every block is one flat colour).
 */
export function pixelArt(img: Image8): Buffer {
  const { width: w, height: h } = img;
  const block = pixelBlock(w, h);
  const gw = Math.ceil(w / block);
  const gh = Math.ceil(h / block);
  const { work, s } = toWork(img, { smooth: true });
  domainTransform(work, 16 * s, 0.2, 3);
  const small = resizeRaster(work, gw, gh);
  tone(small, 0.95, 1.05, 0.5, 0);
  saturate(small, 1.35);
  const pal = kmeansPalette(small, 20, 12, 3);
  const labels = assignPalette(small, pal);
  paintLabels(labels, pal, small);
  // Sprite outline: darken a cell that sits on the dark side of a strong luminance step.
  const L = luma(small);
  const dark = new Uint8Array(gw * gh);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const i = y * gw + x;
      const l = L[i];
      const nb = [x > 0 ? L[i - 1] : l, x < gw - 1 ? L[i + 1] : l, y > 0 ? L[i - gw] : l, y < gh - 1 ? L[i + gw] : l];
      for (const v of nb) if (v - l > 0.28) dark[i] = 1;
    }
  }
  for (let i = 0; i < gw * gh; i++) {
    if (!dark[i]) continue;
    small.r[i] *= 0.55;
    small.g[i] *= 0.55;
    small.b[i] *= 0.6;
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
