/**
 * The recursive sweeps of the domain transform (edge-aware.ts): each pixel pulled toward its already filtered
 * neighbour by that pair's feedback weight, left to right then back along rows, top to bottom then back along
 * columns. In place on float32 planes; the running values are doubles, stored rounded to float32.
 */
import type { Plane } from '../raster';

export function sweepH3(r: Plane, g: Plane, b: Plane, V: Plane, w: number, h: number): void {
  const carry = new Float64Array(3);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    carry[0] = r[o];
    carry[1] = g[o];
    carry[2] = b[o];
    recurseRow3(r, g, b, V, o + 1, o + w, 1, 0, carry);
    // right to left, from where the first pass ended (its unrounded values: carry)
    recurseRow3(r, g, b, V, o + w - 2, o - 1, -1, 1, carry);
  }
}

/**
 * One recursive pass along a row, from `start` to `end` (exclusive) by `step`: each pixel pulled toward the previous
 * result by its weight V[i + vOff]. `carry` holds the running values in and out (doubles, as the pass computes them).
 */
function recurseRow3(
  r: Plane,
  g: Plane,
  b: Plane,
  V: Plane,
  start: number,
  end: number,
  step: number,
  vOff: number,
  carry: Float64Array,
): void {
  let pr = carry[0];
  let pg = carry[1];
  let pb = carry[2];
  for (let i = start; i !== end; i += step) {
    const v = V[i + vOff];
    pr = r[i] + v * (pr - r[i]);
    pg = g[i] + v * (pg - g[i]);
    pb = b[i] + v * (pb - b[i]);
    r[i] = pr;
    g[i] = pg;
    b[i] = pb;
  }
  carry[0] = pr;
  carry[1] = pg;
  carry[2] = pb;
}

export function sweepV3(r: Plane, g: Plane, b: Plane, V: Plane, w: number, h: number): void {
  const f32 = Math.fround;
  // two rows per sweep, down then up: the nearer row's new values (rounded to float32 as stored) pull the farther
  // row's without being loaded back
  let y = 1;
  for (; y + 1 < h; y += 2) {
    for (let i = y * w, end = i + w; i < end; i++) {
      const q = i - w;
      const j = i + w;
      const v = V[i];
      const u = V[j];
      const ri = f32(r[i] + v * (r[q] - r[i]));
      const gi = f32(g[i] + v * (g[q] - g[i]));
      const bi = f32(b[i] + v * (b[q] - b[i]));
      r[i] = ri;
      g[i] = gi;
      b[i] = bi;
      r[j] += u * (ri - r[j]);
      g[j] += u * (gi - g[j]);
      b[j] += u * (bi - b[j]);
    }
  }
  for (let i = y * w, n = w * h; i < n; i++) {
    const v = V[i];
    const q = i - w;
    r[i] += v * (r[q] - r[i]);
    g[i] += v * (g[q] - g[i]);
    b[i] += v * (b[q] - b[i]);
  }
  y = h - 2;
  for (; y >= 1; y -= 2) {
    // rows y and y - 1, each pulled by the row below it (in the order of a sweep from the last pixel back)
    for (let i = y * w + w - 1, start = y * w; i >= start; i--) {
      const q = i + w;
      const j = i - w;
      const v = V[q];
      const u = V[i];
      const ri = f32(r[i] + v * (r[q] - r[i]));
      const gi = f32(g[i] + v * (g[q] - g[i]));
      const bi = f32(b[i] + v * (b[q] - b[i]));
      r[i] = ri;
      g[i] = gi;
      b[i] = bi;
      r[j] += u * (ri - r[j]);
      g[j] += u * (gi - g[j]);
      b[j] += u * (bi - b[j]);
    }
  }
  for (let i = (y + 1) * w - 1; i >= 0; i--) {
    const q = i + w;
    const v = V[q];
    r[i] += v * (r[q] - r[i]);
    g[i] += v * (g[q] - g[i]);
    b[i] += v * (b[q] - b[i]);
  }
}

export function sweepH1(p: Plane, V: Plane, w: number, h: number): void {
  let y = 0;
  // two rows at a time: each pixel waits on its left (right) neighbour's result, and a second, independent row keeps
  // the core busy through that wait (the same operations per pixel as one row at a time)
  for (; y + 1 < h; y += 2) {
    const o = y * w;
    let a = p[o];
    let c = p[o + w];
    for (let i = o + 1, end = o + w; i < end; i++) {
      const j = i + w;
      a = p[i] + V[i] * (a - p[i]);
      c = p[j] + V[j] * (c - p[j]);
      p[i] = a;
      p[j] = c;
    }
    for (let i = o + w - 2; i >= o; i--) {
      const j = i + w;
      a = p[i] + V[i + 1] * (a - p[i]);
      c = p[j] + V[j + 1] * (c - p[j]);
      p[i] = a;
      p[j] = c;
    }
  }
  for (; y < h; y++) {
    const o = y * w;
    let prev = p[o];
    for (let i = o + 1, end = o + w; i < end; i++) {
      prev = p[i] + V[i] * (prev - p[i]);
      p[i] = prev;
    }
    for (let i = o + w - 2; i >= o; i--) {
      prev = p[i] + V[i + 1] * (prev - p[i]);
      p[i] = prev;
    }
  }
}

export function sweepV1(p: Plane, V: Plane, w: number, h: number): void {
  // two rows per sweep, as sweepV3
  let y = 1;
  for (; y + 1 < h; y += 2) {
    for (let i = y * w, end = i + w; i < end; i++) {
      const a = Math.fround(p[i] + V[i] * (p[i - w] - p[i]));
      p[i] = a;
      p[i + w] += V[i + w] * (a - p[i + w]);
    }
  }
  for (let i = y * w, n = w * h; i < n; i++) p[i] += V[i] * (p[i - w] - p[i]);
  for (y = h - 2; y >= 1; y -= 2) {
    for (let i = y * w + w - 1, start = y * w; i >= start; i--) {
      const a = Math.fround(p[i] + V[i + w] * (p[i + w] - p[i]));
      p[i] = a;
      p[i - w] += V[i] * (a - p[i - w]);
    }
  }
  for (let i = (y + 1) * w - 1; i >= 0; i--) p[i] += V[i + w] * (p[i + w] - p[i]);
}
