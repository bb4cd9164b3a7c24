import type { Plane } from '../plane';

/**
 * Source indices and weights of a bilinear resample along one axis (pixel centres aligned, edges clamped):
 * output i reads i0[i] and i1[i], weighted 1 - f[i] and f[i].
 */
export function bilinearAxis(s: number, d: number, i0: Int32Array, i1: Int32Array, f: Float32Array): void {
  const k = s / d;
  for (let x = 0; x < d; x++) {
    let p = (x + 0.5) * k - 0.5;
    if (p < 0) p = 0;
    let a = Math.floor(p);
    if (a > s - 1) a = s - 1;
    i0[x] = a;
    i1[x] = Math.min(a + 1, s - 1);
    f[x] = p - a;
  }
}

/**
 * Bilinear sampler from a small plane onto a larger grid, one output row at a time: finishing passes
 * read the work-resolution fields row by row instead of allocating full-size float planes.
 * Same sampling convention as resizePlane (pixel centres aligned).
 */
export class Upsampler {
  readonly x0: Int32Array;
  readonly x1: Int32Array;
  readonly fx: Float32Array;
  readonly y0: Int32Array;
  readonly y1: Int32Array;
  readonly fy: Float32Array;

  constructor(
    readonly sw: number,
    readonly sh: number,
    readonly dw: number,
    readonly dh: number,
  ) {
    this.x0 = new Int32Array(dw);
    this.x1 = new Int32Array(dw);
    this.fx = new Float32Array(dw);
    this.y0 = new Int32Array(dh);
    this.y1 = new Int32Array(dh);
    this.fy = new Float32Array(dh);
    bilinearAxis(sw, dw, this.x0, this.x1, this.fx);
    bilinearAxis(sh, dh, this.y0, this.y1, this.fy);
  }

  /** Per source plane, its last two source rows resampled horizontally (source row index, row). */
  private readonly cache = new Map<Plane, { ys: [number, number]; rows: [Float32Array, Float32Array] }>();

  /**
   * Fill `out` (length >= dw) with row y of `src` resampled to the target grid. An enlargement reads each source
   * row for two or more output rows: rows are resampled horizontally once and kept (two per plane), so each output
   * pixel costs one vertical blend. `src` must not change while its rows are read.
   */
  row(src: Plane, y: number, out: Float32Array): Float32Array {
    const [top, bot] = this.pair(src, y);
    const wy = this.fy[y];
    const dw = this.dw;
    for (let x = 0; x < dw; x++) {
      const t = top[x];
      out[x] = t + (bot[x] - t) * wy;
    }
    return out;
  }

  /**
   * The two source rows that output row y blends (weight `fy[y]` on the second), resampled to the target width:
   * for a finishing pass that blends several fields in one loop. The rows are valid until the next call for `src`.
   */
  pair(src: Plane, y: number): [Float32Array, Float32Array] {
    let c = this.cache.get(src);
    if (!c) {
      c = { ys: [-1, -1], rows: [new Float32Array(this.dw), new Float32Array(this.dw)] };
      this.cache.set(src, c);
    }
    const a = this.y0[y];
    const b = this.y1[y];
    let ia = c.ys[0] === a ? 0 : c.ys[1] === a ? 1 : -1;
    if (ia < 0) {
      ia = c.ys[0] === b ? 1 : 0; // keep the other row this output row needs
      this.resampleRow(src, a, c.rows[ia]);
      c.ys[ia] = a;
    }
    let ib = c.ys[0] === b ? 0 : c.ys[1] === b ? 1 : -1;
    if (ib < 0) {
      ib = 1 - ia;
      this.resampleRow(src, b, c.rows[ib]);
      c.ys[ib] = b;
    }
    return [c.rows[ia], c.rows[ib]];
  }

  /** Source row sy resampled to the target width. */
  private resampleRow(src: Plane, sy: number, out: Float32Array): void {
    const { x0, x1, fx, sw, dw } = this;
    const r = sy * sw;
    for (let x = 0; x < dw; x++) {
      const a = src[r + x0[x]];
      out[x] = a + (src[r + x1[x]] - a) * fx[x];
    }
  }
}
