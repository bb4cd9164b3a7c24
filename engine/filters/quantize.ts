import type { Raster } from '../raster';

/** Weights of the colour distance (roughly perceptual: green counts most). */
const WR = 0.9;
const WG = 1.2;
const WB = 0.7;

/** Small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Deterministic k-means palette (k-means++ init, Lloyd iterations) on a strided sample of the image.
 * Returns k RGB triples packed in a Float32Array.
 */
export function kmeansPalette(img: Raster, k: number, iterations = 10, seed = 7): Float32Array {
  const { r, g, b } = img;
  const n = r.length;
  const maxSamples = 8000;
  const step = Math.max(1, Math.floor(n / maxSamples));
  const m = Math.floor(n / step);
  const sr = new Float32Array(m);
  const sg = new Float32Array(m);
  const sb = new Float32Array(m);
  for (let i = 0, j = 0; i < m; i++, j += step) {
    sr[i] = r[j];
    sg[i] = g[j];
    sb[i] = b[j];
  }
  const rand = prng(seed);
  const pal = new Float32Array(k * 3);
  const dist = new Float32Array(m).fill(Infinity);
  let first = Math.floor(rand() * m);
  for (let c = 0; c < k; c++) {
    pal[c * 3] = sr[first];
    pal[c * 3 + 1] = sg[first];
    pal[c * 3 + 2] = sb[first];
    let total = 0;
    for (let i = 0; i < m; i++) {
      const dr = sr[i] - pal[c * 3];
      const dg = sg[i] - pal[c * 3 + 1];
      const db = sb[i] - pal[c * 3 + 2];
      const d = WR * dr * dr + WG * dg * dg + WB * db * db;
      if (d < dist[i]) dist[i] = d;
      total += dist[i];
    }
    let target = rand() * total;
    first = m - 1;
    for (let i = 0; i < m; i++) {
      target -= dist[i];
      if (target <= 0) {
        first = i;
        break;
      }
    }
  }
  // Lloyd iterations, with Hamerly's bounds (distances in the weighted colour space, a Euclidean one): `upper` bounds
  // a sample's distance to its centre from above, `lower` the distance to every other centre from below. Where
  // upper < lower the sample cannot change centre, and its distances are not computed; the others are assigned
  // exactly as plain Lloyd (first nearest in palette order). The sums are taken afresh in sample order each time,
  // so the palette is the same bits as without the bounds.
  const sums = new Float64Array(k * 4);
  const labels = new Uint8Array(m);
  const upper = new Float64Array(m);
  const lower = new Float64Array(m); // 0: every sample is assigned in full on the first iteration
  const moved = new Float64Array(k);
  const old = new Float32Array(k * 3);
  for (let it = 0; it < iterations; it++) {
    sums.fill(0);
    for (let i = 0; i < m; i++) {
      let c = labels[i];
      // a relative margin far above rounding: a near-tie is always computed in full
      if (!(upper[i] < lower[i] * SKIP_MARGIN)) {
        c = nearest(pal, k, sr[i], sg[i], sb[i]);
        labels[i] = c;
        upper[i] = Math.sqrt(found[0]);
        lower[i] = Math.sqrt(found[1]);
      }
      sums[c * 4] += sr[i];
      sums[c * 4 + 1] += sg[i];
      sums[c * 4 + 2] += sb[i];
      sums[c * 4 + 3] += 1;
    }
    old.set(pal);
    let most = 0;
    let mostAt = -1;
    let next = 0;
    for (let c = 0; c < k; c++) {
      const cnt = sums[c * 4 + 3];
      if (cnt > 0) {
        pal[c * 3] = sums[c * 4] / cnt;
        pal[c * 3 + 1] = sums[c * 4 + 1] / cnt;
        pal[c * 3 + 2] = sums[c * 4 + 2] / cnt;
      }
      const dr = pal[c * 3] - old[c * 3];
      const dg = pal[c * 3 + 1] - old[c * 3 + 1];
      const db = pal[c * 3 + 2] - old[c * 3 + 2];
      moved[c] = Math.sqrt(WR * dr * dr + WG * dg * dg + WB * db * db);
      if (moved[c] > most) {
        next = most;
        most = moved[c];
        mostAt = c;
      } else if (moved[c] > next) next = moved[c];
    }
    for (let i = 0; i < m; i++) {
      const c = labels[i];
      upper[i] += moved[c];
      // the other centres moved by at most `most`, or `next` when this sample's own centre moved most
      lower[i] -= c === mostAt ? next : most;
    }
  }
  return pal;
}

/** Hamerly's test with a relative margin of 1e-9 (rounding is about 1e-16). */
const SKIP_MARGIN = 1 - 1e-9;

/** nearest's distances (squared, weighted) to the nearest entry and to the next nearest. */
const found = new Float64Array(2);

/** The first nearest palette entry to (r, g, b); its distance and the runner-up's are left in `found`. */
function nearest(pal: Float32Array, k: number, r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Infinity;
  let second = Infinity;
  for (let c = 0, o = 0; c < k; c++, o += 3) {
    const dr = r - pal[o];
    const dg = g - pal[o + 1];
    const db = b - pal[o + 2];
    const d = WR * dr * dr + WG * dg * dg + WB * db * db;
    if (d < bestD) {
      second = bestD;
      bestD = d;
      best = c;
    } else if (d < second) second = d;
  }
  found[0] = bestD;
  found[1] = second;
  return best;
}

/** Label of the nearest palette entry for every pixel. */
export function assignPalette(img: Raster, pal: Float32Array): Uint8Array {
  const k = pal.length / 3;
  const { r, g, b } = img;
  const n = r.length;
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) labels[i] = nearest(pal, k, r[i], g[i], b[i]);
  return labels;
}

/** 3x3 majority filter on a label image (removes isolated specks; keeps region borders). */
export function majorityFilter(labels: Uint8Array, w: number, h: number, passes = 1): Uint8Array {
  let src = labels;
  const counts = new Uint8Array(256);
  for (let p = 0; p < passes; p++) {
    const dst = new Uint8Array(src.length);
    for (let y = 0; y < h; y++) {
      const y0 = y > 0 ? y - 1 : 0;
      const y1 = y < h - 1 ? y + 1 : h - 1;
      for (let x = 0; x < w; x++) {
        const x0 = x > 0 ? x - 1 : 0;
        const x1 = x < w - 1 ? x + 1 : w - 1;
        const self = src[y * w + x];
        let best = self;
        let bestC = 0;
        for (let yy = y0; yy <= y1; yy++) {
          for (let xx = x0; xx <= x1; xx++) {
            const l = src[yy * w + xx];
            const c = ++counts[l];
            if (c > bestC || (c === bestC && l === self)) {
              bestC = c;
              best = l;
            }
          }
        }
        for (let yy = y0; yy <= y1; yy++) for (let xx = x0; xx <= x1; xx++) counts[src[yy * w + xx]] = 0;
        dst[y * w + x] = bestC >= 5 ? best : self;
      }
    }
    src = dst;
  }
  return src;
}

/** Paint a label image with its palette into `out` (in place). */
export function paintLabels(labels: Uint8Array | Uint16Array, pal: Float32Array, out: Raster): Raster {
  const { r, g, b } = out;
  for (let i = 0; i < labels.length; i++) {
    const o = labels[i] * 3;
    r[i] = pal[o];
    g[i] = pal[o + 1];
    b[i] = pal[o + 2];
  }
  return out;
}
