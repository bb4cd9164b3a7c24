/**
 * The two passes of blur.ts's box blur: running sums of 2r + 1 values along rows (boxH) and down columns (boxV),
 * edges clamped. boxH's sums are doubles, boxV's float32 (as its sums array holds them); each pass writes every value
 * of `dst`.
 */
import type { Plane } from '../plane';

export function boxH(src: Plane, dst: Plane, w: number, h: number, r: number): void {
  const inv = 1 / (2 * r + 1);
  // clamped reads only near the ends (x < x1, x >= x2): the middle of a row slides without a test per pixel
  const x1 = Math.min(r, w);
  const x2 = Math.max(x1, w - r - 1);
  let y = 0;
  // the middle two rows at a time: each sum waits on the last, and a second, independent row keeps the core busy
  // through that wait (the same operations per pixel as one row at a time)
  for (; y + 1 < h; y += 2) {
    const o = y * w;
    const p = o + w;
    let acc = boxStart(src, dst, o, w, r, inv, x1);
    let acd = boxStart(src, dst, p, w, r, inv, x1);
    for (let x = x1, a = x1 + r + 1, b = x1 - r; x < x2; x++, a++, b++) {
      dst[o + x] = acc * inv;
      dst[p + x] = acd * inv;
      acc += src[o + a] - src[o + b];
      acd += src[p + a] - src[p + b];
    }
    boxEnd(src, dst, o, w, r, inv, x2, acc);
    boxEnd(src, dst, p, w, r, inv, x2, acd);
  }
  for (; y < h; y++) {
    const o = y * w;
    let acc = boxStart(src, dst, o, w, r, inv, x1);
    for (let x = x1, a = o + x1 + r + 1, b = o + x1 - r; x < x2; x++, a++, b++) {
      dst[o + x] = acc * inv;
      acc += src[a] - src[b];
    }
    boxEnd(src, dst, o, w, r, inv, x2, acc);
  }
}

/** boxH's row at offset o up to x1 (reads clamped at the left end); returns the running sum there. */
function boxStart(src: Plane, dst: Plane, o: number, w: number, r: number, inv: number, x1: number): number {
  const last = w - 1;
  let acc = 0;
  for (let k = -r; k <= r; k++) acc += src[o + (k < 0 ? 0 : k > last ? last : k)];
  for (let x = 0; x < x1; x++) {
    dst[o + x] = acc * inv;
    const add = x + r + 1;
    acc += src[o + (add > last ? last : add)] - src[o];
  }
  return acc;
}

/** boxH's row at offset o from x2 on (reads clamped at the right end), from the running sum `acc`. */
function boxEnd(src: Plane, dst: Plane, o: number, w: number, r: number, inv: number, x2: number, acc: number): void {
  const last = w - 1;
  for (let x = x2; x < w; x++) {
    dst[o + x] = acc * inv;
    const sub = x - r;
    acc += src[o + last] - src[o + (sub < 0 ? 0 : sub)];
  }
}

export function boxV(src: Plane, dst: Plane, w: number, h: number, r: number): void {
  const inv = 1 / (2 * r + 1);
  const last = h - 1;
  const acc = new Float32Array(w);
  for (let k = -r; k <= r; k++) {
    const row = (k < 0 ? 0 : k > last ? last : k) * w;
    for (let x = 0; x < w; x++) acc[x] += src[row + x];
  }
  const rowAt = (y: number) => (y < 0 ? 0 : y > last ? last : y) * w;
  let y = 0;
  // two output rows per sweep: the running sums are loaded and stored once for both (rounded to float32 between the
  // rows as their array would hold them)
  for (; y + 1 < h; y += 2) {
    const o = y * w;
    const add = rowAt(y + r + 1);
    const sub = rowAt(y - r);
    const add2 = rowAt(y + r + 2);
    const sub2 = rowAt(y + 1 - r);
    for (let x = 0; x < w; x++) {
      const a = acc[x];
      dst[o + x] = a * inv;
      const b = Math.fround(a + src[add + x] - src[sub + x]);
      dst[o + w + x] = b * inv;
      acc[x] = b + src[add2 + x] - src[sub2 + x];
    }
  }
  for (; y < h; y++) {
    const o = y * w;
    const add = rowAt(y + r + 1);
    const sub = rowAt(y - r);
    for (let x = 0; x < w; x++) {
      const a = acc[x];
      dst[o + x] = a * inv;
      acc[x] = a + src[add + x] - src[sub + x];
    }
  }
}
