import sharp from 'sharp';

import { photo } from '../fixtures/photos';

export { PHOTOS, photo } from '../fixtures/photos';

/** A test photo shrunk to `size` px (long side), re-encoded as PNG (keeps tests fast). */
export async function smallPhoto(name: string, size: number): Promise<Buffer> {
  return sharp(photo(name)).resize(size, size, { fit: 'inside' }).png().toBuffer();
}

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function pixels(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export function lumaOf(p: Pixels): Float32Array {
  const n = p.width * p.height;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * p.channels;
    out[i] =
      p.channels >= 3 ? (0.2126 * p.data[o] + 0.7152 * p.data[o + 1] + 0.0722 * p.data[o + 2]) / 255 : p.data[o] / 255;
  }
  return out;
}

export function meanAbsDiff(a: Pixels, b: Pixels): number {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += Math.abs(a.data[i] - b.data[i]);
  return s / a.data.length / 255;
}

/** Number of distinct colours needed to cover `fraction` of the pixels. */
export function coveringColours(p: Pixels, fraction = 0.9): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < p.width * p.height; i++) {
    const o = i * p.channels;
    const key = (p.data[o] << 16) | (p.data[o + 1] << 8) | p.data[o + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const sorted = [...counts.values()].sort((x, y) => y - x);
  const target = p.width * p.height * fraction;
  let acc = 0;
  for (let i = 0; i < sorted.length; i++) {
    acc += sorted[i];
    if (acc >= target) return i + 1;
  }
  return sorted.length;
}

/**
 * Fraction of the input's strongest edges (top 6% Sobel magnitude) that have a pixel `ink` accepts (by its index)
 * within `radius` px.
 */
function inkedEdges(input: Pixels, radius: number, ink: (j: number) => boolean): number {
  const w = input.width;
  const h = input.height;
  const L = lumaOf(input);
  const mag = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = L[i - w + 1] + 2 * L[i + 1] + L[i + w + 1] - L[i - w - 1] - 2 * L[i - 1] - L[i + w - 1];
      const gy = L[i + w - 1] + 2 * L[i + w] + L[i + w + 1] - L[i - w - 1] - 2 * L[i - w] - L[i - w + 1];
      mag[i] = Math.hypot(gx, gy);
    }
  }
  const sorted = Float32Array.from(mag).sort();
  const thr = sorted[Math.floor(sorted.length * 0.94)];
  let edges = 0;
  let inked = 0;
  for (let y = radius; y < h - radius; y++) {
    for (let x = radius; x < w - radius; x++) {
      const i = y * w + x;
      if (mag[i] < thr || mag[i] === 0) continue;
      edges++;
      let found = false;
      for (let dy = -radius; dy <= radius && !found; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          if (ink(i + dy * w + dx)) {
            found = true;
            break;
          }
        }
      }
      if (found) inked++;
    }
  }
  return edges ? inked / edges : 0;
}

/**
 * Fraction of the input's strongest edges (top 6% Sobel magnitude) that have an ink-dark pixel
 * (luma < darkLevel) in the output within `radius` px.
 */
export function inkOnEdges(input: Pixels, output: Pixels, darkLevel: number, radius = 2): number {
  const O = lumaOf(output);
  return inkedEdges(input, radius, (j) => O[j] < darkLevel);
}

/** Same measure on flat (non-edge) areas: fraction of low-gradient pixels that are ink-dark. */
export function darkFraction(output: Pixels, darkLevel: number): number {
  const O = lumaOf(output);
  let d = 0;
  for (let i = 0; i < O.length; i++) if (O[i] < darkLevel) d++;
  return d / O.length;
}

/** Fraction of pixels equal to their right and lower neighbour (blockiness). */
export function neighbourEquality(p: Pixels): number {
  let eq = 0;
  let total = 0;
  const c = p.channels;
  for (let y = 0; y < p.height - 1; y++) {
    for (let x = 0; x < p.width - 1; x++) {
      const o = (y * p.width + x) * c;
      const r = o + c;
      const d = o + p.width * c;
      total += 2;
      if (p.data[o] === p.data[r] && p.data[o + 1] === p.data[r + 1] && p.data[o + 2] === p.data[r + 2]) eq++;
      if (p.data[o] === p.data[d] && p.data[o + 1] === p.data[d + 1] && p.data[o + 2] === p.data[d + 2]) eq++;
    }
  }
  return eq / total;
}

function minMax(src: Float32Array, w: number, h: number, r: number, useMax: boolean): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const pick = useMax ? Math.max : Math.min;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = src[y * w + x];
      for (let d = -r; d <= r; d++) {
        const xx = Math.min(w - 1, Math.max(0, x + d));
        v = pick(v, src[y * w + xx]);
      }
      tmp[y * w + x] = v;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = tmp[y * w + x];
      for (let d = -r; d <= r; d++) {
        const yy = Math.min(h - 1, Math.max(0, y + d));
        v = pick(v, tmp[yy * w + x]);
      }
      out[y * w + x] = v;
    }
  }
  return out;
}

/**
 * Ink-line measure: fraction of the input's strongest edges (top 6% Sobel) near which the output has a
 * thin dark line, i.e. a pixel much darker than its morphological closing (black-hat > `contrast`).
 * Photos score low (edges are steps, not lines); inked styles score high.
 */
export function inkLinesOnEdges(input: Pixels, output: Pixels, contrast = 0.2, radius = 2): number {
  const w = input.width;
  const h = input.height;
  const O = lumaOf(output);
  const closing = minMax(minMax(O, w, h, 2, true), w, h, 2, false);
  return inkedEdges(input, radius, (j) => closing[j] - O[j] > contrast);
}
