import type { Raster } from '../raster';
import { gaussBlur } from './blur';
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
  const { r, g, b } = img;
  const n = r.length;
  const k = opts.chromaK;
  const nb = opts.bands.length + 1;
  const lw = opts.lumaWeight ?? 0.35;
  const valleySearch = opts.valleySearch ?? 0.12;
  // opponent axes
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
    Y[i] = y;
    A[i] = r[i] - g[i];
    B[i] = 0.5 * (r[i] + g[i]) - b[i];
  }
  if (opts.smoothFlat && opts.smoothFlat > 0) {
    const { width: w, height: h } = img;
    let Ys: Float32Array;
    let As: Float32Array;
    let Bs: Float32Array;
    if (opts.smoothFlatRange) {
      const planes = { width: w, height: h, r: Float32Array.from(Y), g: Float32Array.from(A), b: Float32Array.from(B) };
      domainTransform(planes, 2 * opts.smoothFlat, opts.smoothFlatRange, 2); // a guide only: a third pass changed nothing visible
      Ys = planes.r;
      As = planes.g;
      Bs = planes.b;
    } else {
      Ys = gaussBlur(Y, w, h, opts.smoothFlat);
      As = gaussBlur(A, w, h, opts.smoothFlat);
      Bs = gaussBlur(B, w, h, opts.smoothFlat);
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
  // k-means on (A, B, lw*Y) with deterministic farthest-point init on a strided sample
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
  const anchors = (opts.anchors ?? []).slice(0, k - 1);
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
  const labels = new Uint16Array(n);
  const cluster = new Uint8Array(n);
  const HB = 128;
  const hist = new Float64Array(k * HB);
  for (let i = 0; i < n; i++) {
    const c = nearestC(ca, cb, cy, k, A[i], B[i], Y[i], lw);
    cluster[i] = c;
    const y = Y[i] < 0 ? 0 : Y[i] > 1 ? 1 : Y[i];
    hist[c * HB + Math.min(HB - 1, (y * HB) | 0)]++;
  }
  // Per-cluster band thresholds moved to the nearest valley of that cluster's luminance histogram,
  // so a threshold never slices through a uniform area (the cause of camouflage blotches).
  const thr = new Float32Array(k * (nb - 1));
  const sm = new Float64Array(HB);
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < HB; j++) {
      let a = 0;
      let wsum = 0;
      for (let d = -4; d <= 4; d++) {
        const q = j + d;
        if (q < 0 || q >= HB) continue;
        const wgt = Math.exp(-(d * d) / 8);
        a += hist[c * HB + q] * wgt;
        wsum += wgt;
      }
      sm[j] = a / wsum;
    }
    for (let t = 0; t < nb - 1; t++) {
      const nominal = opts.bands[t];
      const j0 = Math.max(1, Math.round((nominal - valleySearch) * HB));
      const j1 = Math.min(HB - 2, Math.round((nominal + valleySearch) * HB));
      let best = Math.round(nominal * HB);
      let bestV = Infinity;
      for (let j = j0; j <= j1; j++) {
        // prefer valleys, slightly prefer staying near the nominal threshold
        const v = sm[j] * (1 + (0.6 * Math.abs(j / HB - nominal)) / valleySearch);
        if (v < bestV) {
          bestV = v;
          best = j;
        }
      }
      thr[c * (nb - 1) + t] = best / HB;
    }
  }
  for (let i = 0; i < n; i++) {
    const c = cluster[i];
    let band = 0;
    const o = c * (nb - 1);
    while (band < nb - 1 && Y[i] >= thr[o + band]) band++;
    labels[i] = c * nb + band;
  }
  const L = k * nb;
  mergeSmallRegions(labels, img.width, img.height, opts.minRegion, L);
  if (opts.thinStrips) {
    dissolveThinStrips(labels, img, L, opts.thinStrips);
    mergeSmallRegions(labels, img.width, img.height, opts.minRegion, L); // the specks a split leaves
  }
  // palette = mean colour per label, levels = mean luminance, in one pass
  const means = labelMeans(labels, [r, g, b, Y], L);
  const palette = new Float32Array(L * 3);
  const levels = new Float32Array(L);
  for (let l = 0; l < L; l++) {
    palette[l * 3] = means[l * 4];
    palette[l * 3 + 1] = means[l * 4 + 1];
    palette[l * 3 + 2] = means[l * 4 + 2];
    levels[l] = means[l * 4 + 3];
  }
  return { labels, palette, levels };
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

/**
 * Merge 4-connected regions smaller than minArea into the neighbouring label they share the
 * longest border with. In place. O(N).
 */
export function mergeSmallRegions(labels: Uint16Array, w: number, h: number, minArea: number, numLabels: number): void {
  if (minArea <= 1) return;
  const n = w * h;
  const comp = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const members = new Int32Array(n);
  const border = new Uint32Array(numLabels);
  for (let start = 0; start < n; start++) {
    if (comp[start] !== -1) continue;
    const lab = labels[start];
    let sp = 0;
    let cnt = 0;
    stack[sp++] = start;
    comp[start] = start;
    while (sp > 0) {
      const i = stack[--sp];
      members[cnt++] = i;
      const x = i % w;
      if (x > 0 && comp[i - 1] === -1 && labels[i - 1] === lab) {
        comp[i - 1] = start;
        stack[sp++] = i - 1;
      }
      if (x < w - 1 && comp[i + 1] === -1 && labels[i + 1] === lab) {
        comp[i + 1] = start;
        stack[sp++] = i + 1;
      }
      if (i >= w && comp[i - w] === -1 && labels[i - w] === lab) {
        comp[i - w] = start;
        stack[sp++] = i - w;
      }
      if (i < n - w && comp[i + w] === -1 && labels[i + w] === lab) {
        comp[i + w] = start;
        stack[sp++] = i + w;
      }
    }
    if (cnt >= minArea) continue;
    border.fill(0);
    let best = -1;
    let bestC = 0;
    // a neighbour of another label counts one more border pixel for it; ties go to the first label to reach a count
    const vote = (q: number) => {
      const l2 = labels[q];
      if (l2 === lab) return;
      const c = ++border[l2];
      if (c > bestC) {
        bestC = c;
        best = l2;
      }
    };
    for (let j = 0; j < cnt; j++) {
      const i = members[j];
      const x = i % w;
      if (x > 0) vote(i - 1);
      if (x < w - 1) vote(i + 1);
      if (i >= w) vote(i - w);
      if (i < n - w) vote(i + w);
    }
    if (best >= 0) for (let j = 0; j < cnt; j++) labels[members[j]] = best;
  }
}

/**
 * Anti-aliased borders: every run of at most `maxWidth` equal labels (along rows, then along columns) that sits
 * between two different labels and whose mean colour lies between theirs (a blend of the two, not a colour of
 * its own, such as a dark mast against the sky) is split between them: its first half joins the label before
 * it, the rest the label after it, so the border moves to the middle of the strip. In place.
 */
export function dissolveThinStrips(labels: Uint16Array, img: Raster, numLabels: number, maxWidth: number): void {
  const { width: w, height: h } = img;
  const mean = labelMeans(labels, [img.r, img.g, img.b], numLabels);
  const isBlend = (s: number, a: number, b: number): boolean => {
    const dr = mean[b * 3] - mean[a * 3];
    const dg = mean[b * 3 + 1] - mean[a * 3 + 1];
    const db = mean[b * 3 + 2] - mean[a * 3 + 2];
    const len2 = dr * dr + dg * dg + db * db;
    if (len2 < 1e-6) return false;
    const sr = mean[s * 3] - mean[a * 3];
    const sg = mean[s * 3 + 1] - mean[a * 3 + 1];
    const sb = mean[s * 3 + 2] - mean[a * 3 + 2];
    const t = (sr * dr + sg * dg + sb * db) / len2;
    if (t < 0.05 || t > 0.95) return false;
    const pr = sr - t * dr;
    const pg = sg - t * dg;
    const pb = sb - t * db;
    return pr * pr + pg * pg + pb * pb < 0.16 * len2; // off the line by less than 0.4 of the step
  };
  // a run of equal labels that ended just before `end`: split it if it is a thin blend between its neighbours
  const split = (o: number, step: number, len: number, start: number, end: number, lab: number) => {
    const run = end - start;
    if (start === 0 || end >= len || run > maxWidth) return;
    const before = labels[o + (start - 1) * step];
    const after = labels[o + end * step];
    if (before === after || !isBlend(lab, before, after)) return;
    const half = start + (run >> 1);
    for (let k = start; k < end; k++) labels[o + k * step] = k < half ? before : after;
  };
  // along rows
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let start = 0;
    for (let x = 1; x <= w; x++) {
      if (x < w && labels[o + x] === labels[o + start]) continue;
      split(o, 1, w, start, x, labels[o + start]);
      start = x;
    }
  }
  // along columns, walked row by row (in memory order) with each column's open run: the same runs, splits and
  // order of reads as walking each column down in turn, since a split only changes its own column above the row
  const runStart = new Int32Array(w);
  const runLab = new Uint16Array(w);
  runLab.set(labels.subarray(0, w));
  for (let y = 1; y <= h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      if (y < h && labels[o + x] === runLab[x]) continue;
      split(x, w, h, runStart[x], y, runLab[x]);
      if (y < h) {
        runStart[x] = y;
        runLab[x] = labels[o + x];
      }
    }
  }
}

/** Mean of each plane per label: `planes.length` values per label, label-major. Empty labels read 0. */
function labelMeans(labels: Uint16Array, planes: readonly Float32Array[], numLabels: number): Float32Array {
  const np = planes.length;
  const sum = new Float64Array(numLabels * (np + 1));
  for (let i = 0; i < labels.length; i++) {
    const o = labels[i] * (np + 1);
    for (let c = 0; c < np; c++) sum[o + c] += planes[c][i];
    sum[o + np]++;
  }
  const out = new Float32Array(numLabels * np);
  for (let l = 0; l < numLabels; l++) {
    const cnt = sum[l * (np + 1) + np] || 1;
    for (let c = 0; c < np; c++) out[l * np + c] = sum[l * (np + 1) + c] / cnt;
  }
  return out;
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
