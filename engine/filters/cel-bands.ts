/** Cel quantisation's luminance bands: thresholds at histogram valleys, band labels and their colours. */
import type { Raster } from '../raster';
import { labelMeans } from './cel-regions';

/** Histogram bins of each cluster's luminance. */
export const HB = 128;

/**
 * Per-cluster band thresholds moved to the nearest valley of that cluster's luminance histogram,
 * so a threshold never slices through a uniform area (the cause of camouflage blotches).
 */
export function valleyThresholds(
  hist: Float64Array,
  k: number,
  bands: readonly number[],
  valleySearch: number,
): Float32Array {
  const nb = bands.length + 1;
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
      const nominal = bands[t];
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
  return thr;
}

/** label = cluster * nb + the pixel's luminance band among its cluster's thresholds. */
export function bandLabels(cluster: Uint8Array, Y: Float32Array, thr: Float32Array, nb: number): Uint16Array {
  const n = Y.length;
  const labels = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const c = cluster[i];
    let band = 0;
    const o = c * (nb - 1);
    while (band < nb - 1 && Y[i] >= thr[o + band]) band++;
    labels[i] = c * nb + band;
  }
  return labels;
}

/** palette = mean colour per label, levels = mean luminance, in one pass. */
export function labelColours(labels: Uint16Array, img: Raster, Y: Float32Array, L: number) {
  const means = labelMeans(labels, [img.r, img.g, img.b, Y], L);
  const palette = new Float32Array(L * 3);
  const levels = new Float32Array(L);
  for (let l = 0; l < L; l++) {
    palette[l * 3] = means[l * 4];
    palette[l * 3 + 1] = means[l * 4 + 1];
    palette[l * 3 + 2] = means[l * 4 + 2];
    levels[l] = means[l * 4 + 3];
  }
  return { palette, levels };
}
