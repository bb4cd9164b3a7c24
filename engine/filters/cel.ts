import type { Raster } from '../raster';
import { gaussBlur } from './blur';
import { bandLabels, HB, labelColours, valleyThresholds } from './cel-bands';
import { dissolveThinStrips, mergeSmallRegions } from './cel-regions';
import { domainTransform } from './edge-aware';

/**
 * Cel quantisation: regions are clustered by colour *chroma* (k-means on opponent colour axes),
 * and each region is shaded in a few luminance bands with fixed thresholds. Compared with plain
 * RGB k-means this keeps uniform backgrounds in one band (no camouflage blotches) and gives
 * faces a clean light/shadow split. Small islands are merged into their neighbours afterwards.
 */
export interface CelOptions {
  /** Number of chroma clusters. */
  chromaK: number;
  /** Ascending luminance thresholds in [0,1] (n thresholds -> n+1 bands). */
  bands: readonly number[];
  /** Islands smaller than this many pixels are merged into the surrounding region. */
  minRegion: number;
  /** Weight of luminance in the chroma clustering (0 = pure chroma). */
  lumaWeight?: number;
  /** How far (luminance units) a band threshold may move to reach a histogram valley. */
  valleySearch?: number;
  seed?: number;
  /**
   * Sigma (px) of a wide blur whose values replace the pixel's own where the two agree (smooth areas:
   * skies, bokeh, walls), so band and cluster borders there follow clean iso-contours instead of
   * noise-shaped blobs (the "camouflage" look). Object edges keep their own values. 0 = off.
   */
  smoothFlat?: number;
  /**
   * Makes that wide blur edge-aware (domain transform, this range in colour units): thin dark structures
   * (masts, lattice towers) then no longer pull the sky's contours down into drips around them. Left off
   * where a mottled backdrop must melt into one tone (a Gaussian does that better).
   */
  smoothFlatRange?: number;
  /**
   * Strips at most this many pixels wide between two other regions are split between them. Anti-aliased
   * edge pixels (half red, half white) otherwise form a band of a third colour along every contrasty border,
   * which reads as misregistered print once enlarged. 0 = off.
   */
  thinStrips?: number;
  /**
   * Colours (RGB 0..1) that get a cluster of their own, fixed through the k-means: a face's skin, so it never
   * shares a cluster (and so a flat colour) with a backdrop of similar chroma.
   */
  anchors?: ReadonlyArray<readonly [number, number, number]>;
}

export interface CelResult {
  labels: Uint16Array;
  /** RGB per label (label = cluster * (bands+1) + band). */
  palette: Float32Array;
  /** Mean luminance per label. */
  levels: Float32Array;
}

export function celQuantize(img: Raster, opts: CelOptions): CelResult {
  const k = opts.chromaK;
  const nb = opts.bands.length + 1;
  const lw = opts.lumaWeight ?? 0.35;
  const ax = opponentAxes(img);
  if (opts.smoothFlat && opts.smoothFlat > 0) flattenSmoothAreas(ax, img, opts.smoothFlat, opts.smoothFlatRange);
  const centres = chromaCentres(ax, k, lw, opts.anchors ?? []);
  const { cluster, hist } = assignClusters(ax, centres, k, lw);
  const thr = valleyThresholds(hist, k, opts.bands, opts.valleySearch ?? 0.12);
  const labels = bandLabels(cluster, ax.Y, thr, nb);
  const L = k * nb;
  mergeSmallRegions(labels, img.width, img.height, opts.minRegion, L);
  if (opts.thinStrips) {
    dissolveThinStrips(labels, img, L, opts.thinStrips);
    mergeSmallRegions(labels, img.width, img.height, opts.minRegion, L); // the specks a split leaves
  }
  return { labels, ...labelColours(labels, img, ax.Y, L) };
}

/** A raster on opponent axes: luma Y, red-green A, yellow-blue B. */
interface Axes {
  Y: Float32Array;
  A: Float32Array;
  B: Float32Array;
}

/** Cluster centres on the opponent axes (k of each). */
interface Centres {
  ca: Float32Array;
  cb: Float32Array;
  cy: Float32Array;
}

function opponentAxes(img: Raster): Axes {
  const { r, g, b } = img;
  const n = r.length;
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
    Y[i] = y;
    A[i] = r[i] - g[i];
    B[i] = 0.5 * (r[i] + g[i]) - b[i];
  }
  return { Y, A, B };
}

/** CelOptions.smoothFlat: where a wide blur agrees with the pixel, the blur's value (in place on `ax`). */
function flattenSmoothAreas(ax: Axes, img: Raster, sigma: number, range: number | undefined): void {
  const { Y, A, B } = ax;
  const n = Y.length;
  const { width: w, height: h } = img;
  let Ys: Float32Array;
  let As: Float32Array;
  let Bs: Float32Array;
  if (range) {
    const planes = { width: w, height: h, r: Float32Array.from(Y), g: Float32Array.from(A), b: Float32Array.from(B) };
    domainTransform(planes, 2 * sigma, range, 2); // a guide only: a third pass changed nothing visible
    Ys = planes.r;
    As = planes.g;
    Bs = planes.b;
  } else {
    Ys = gaussBlur(Y, w, h, sigma);
    As = gaussBlur(A, w, h, sigma);
    Bs = gaussBlur(B, w, h, sigma);
  }
  for (let i = 0; i < n; i++) {
    const dev = Math.abs(Y[i] - Ys[i]) + 0.5 * (Math.abs(A[i] - As[i]) + Math.abs(B[i] - Bs[i]));
    // 1 where the neighbourhood is smooth (a gradient), 0 near structure
    let t = (0.07 - dev) / 0.04;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    Y[i] += (Ys[i] - Y[i]) * t;
    A[i] += (As[i] - A[i]) * t;
    B[i] += (Bs[i] - B[i]) * t;
  }
}

/**
 * k-means on (A, B, lw*Y) over a strided sample of about 6000 pixels: deterministic farthest-point init from the
 * sample mean, anchors (CelOptions.anchors) fixed in the slots after it, then 10 Lloyd iterations.
 */
function chromaCentres(ax: Axes, k: number, lw: number, anchorList: NonNullable<CelOptions['anchors']>): Centres {
  const { Y, A, B } = ax;
  const n = Y.length;
  const step = Math.max(1, Math.floor(n / 6000));
  const m = Math.floor(n / step);
  const ca = new Float32Array(k);
  const cb = new Float32Array(k);
  const cy = new Float32Array(k);
  // init: first centre = sample mean, then farthest points
  let sa = 0;
  let sb2 = 0;
  let sy = 0;
  for (let s = 0; s < m; s++) {
    sa += A[s * step];
    sb2 += B[s * step];
    sy += Y[s * step];
  }
  ca[0] = sa / m;
  cb[0] = sb2 / m;
  cy[0] = sy / m;
  const dmin = new Float32Array(m).fill(Infinity);
  const anchors = anchorList.slice(0, k - 1);
  const fixed = new Uint8Array(k);
  for (let c = 1; c < k; c++) {
    const anchor = anchors[c - 1];
    if (anchor) {
      const [ar, ag, ab] = anchor;
      ca[c] = ar - ag;
      cb[c] = 0.5 * (ar + ag) - ab;
      cy[c] = 0.2126 * ar + 0.7152 * ag + 0.0722 * ab;
      fixed[c] = 1;
    }
    let far = 0;
    let farD = -1;
    for (let s = 0; s < m; s++) {
      const i = s * step;
      const da = A[i] - ca[c - 1];
      const db = B[i] - cb[c - 1];
      const dy = (Y[i] - cy[c - 1]) * lw;
      const d = da * da + db * db + dy * dy;
      if (d < dmin[s]) dmin[s] = d;
      if (dmin[s] > farD) {
        farD = dmin[s];
        far = i;
      }
    }
    if (fixed[c]) continue;
    ca[c] = A[far];
    cb[c] = B[far];
    cy[c] = Y[far];
  }
  const acc = new Float64Array(k * 4);
  for (let it = 0; it < 10; it++) {
    acc.fill(0);
    for (let s = 0; s < m; s++) {
      const i = s * step;
      const c = nearestC(ca, cb, cy, k, A[i], B[i], Y[i], lw);
      acc[c * 4] += A[i];
      acc[c * 4 + 1] += B[i];
      acc[c * 4 + 2] += Y[i];
      acc[c * 4 + 3]++;
    }
    for (let c = 0; c < k; c++) {
      const cnt = acc[c * 4 + 3];
      if (cnt > 0 && !fixed[c]) {
        ca[c] = acc[c * 4] / cnt;
        cb[c] = acc[c * 4 + 1] / cnt;
        cy[c] = acc[c * 4 + 2] / cnt;
      }
    }
  }
  return { ca, cb, cy };
}

/** Every pixel's nearest centre, and each cluster's luminance histogram (HB bins). */
function assignClusters(ax: Axes, { ca, cb, cy }: Centres, k: number, lw: number) {
  const { Y, A, B } = ax;
  const n = Y.length;
  const cluster = new Uint8Array(n);
  const hist = new Float64Array(k * HB);
  for (let i = 0; i < n; i++) {
    const c = nearestC(ca, cb, cy, k, A[i], B[i], Y[i], lw);
    cluster[i] = c;
    const y = Y[i] < 0 ? 0 : Y[i] > 1 ? 1 : Y[i];
    hist[c * HB + Math.min(HB - 1, (y * HB) | 0)]++;
  }
  return { cluster, hist };
}

function nearestC(
  ca: Float32Array,
  cb: Float32Array,
  cy: Float32Array,
  k: number,
  a: number,
  b: number,
  y: number,
  lw: number,
): number {
  let best = 0;
  let bd = Infinity;
  for (let c = 0; c < k; c++) {
    const da = a - ca[c];
    const db = b - cb[c];
    const dy = (y - cy[c]) * lw;
    const d = da * da + db * db + dy * dy;
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

export function paintCel(res: CelResult, out: Raster): Raster {
  const { labels, palette } = res;
  for (let i = 0; i < labels.length; i++) {
    const o = labels[i] * 3;
    out.r[i] = palette[o];
    out.g[i] = palette[o + 1];
    out.b[i] = palette[o + 2];
  }
  return out;
}

/** The palette after the per-pixel colour grade a style applies to the painted image (same function, so same colours). */
export function gradedPalette(palette: Float32Array, grade: (img: Raster) => void): Float32Array {
  const n = palette.length / 3;
  const img: Raster = { width: n, height: 1, r: new Float32Array(n), g: new Float32Array(n), b: new Float32Array(n) };
  for (let i = 0; i < n; i++) {
    img.r[i] = palette[i * 3];
    img.g[i] = palette[i * 3 + 1];
    img.b[i] = palette[i * 3 + 2];
  }
  grade(img);
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    out[i * 3] = img.r[i];
    out[i * 3 + 1] = img.g[i];
    out[i * 3 + 2] = img.b[i];
  }
  return out;
}
