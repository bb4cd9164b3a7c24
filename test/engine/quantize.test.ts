/**
 * The k-means palette skips distance computations with Hamerly's bounds: it must give the same bits as plain Lloyd.
 */
import { kmeansPalette } from '../../engine/filters/quantize';
import { createRaster } from '../../engine/raster';

/** Plain Lloyd from the same k-means++ start: the reference the bounded version must equal. */
function lloyd(
  r: Float32Array,
  g: Float32Array,
  b: Float32Array,
  start: Float32Array,
  iterations: number,
): Float32Array {
  const [WR, WG, WB] = [0.9, 1.2, 0.7];
  const k = start.length / 3;
  const pal = Float32Array.from(start);
  for (let it = 0; it < iterations; it++) {
    const sums = new Float64Array(k * 4);
    for (let i = 0; i < r.length; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = WR * (r[i] - pal[c * 3]) ** 2 + WG * (g[i] - pal[c * 3 + 1]) ** 2 + WB * (b[i] - pal[c * 3 + 2]) ** 2;
        if (d < bestD) [bestD, best] = [d, c];
      }
      sums[best * 4] += r[i];
      sums[best * 4 + 1] += g[i];
      sums[best * 4 + 2] += b[i];
      sums[best * 4 + 3] += 1;
    }
    for (let c = 0; c < k; c++) {
      const n = sums[c * 4 + 3];
      if (n > 0) for (let j = 0; j < 3; j++) pal[c * 3 + j] = sums[c * 4 + j] / n;
    }
  }
  return pal;
}

describe('kmeansPalette', () => {
  it('equals plain Lloyd bit for bit: gradients, clusters, duplicate colours and exact ties', () => {
    let seed = 11;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const [w, h] = [120, 90];
    const img = createRaster(w, h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (x < 40)
          [img.r[i], img.g[i], img.b[i]] = [x / 40, y / h, 0.5]; // a smooth gradient: samples on every border
        else if (x < 80)
          [img.r[i], img.g[i], img.b[i]] = [0.2 + 0.05 * rand(), 0.7 + 0.05 * rand(), 0.1]; // a noisy cluster
        else [img.r[i], img.g[i], img.b[i]] = (x + y) % 2 ? [0.25, 0.25, 0.25] : [0.75, 0.75, 0.75]; // two exact colours
      }
    }
    for (const [k, seedK] of [
      [16, 3],
      [6, 7],
      [24, 1],
    ]) {
      // the same k-means++ start, then as many Lloyd iterations as the bounded run
      const start = kmeansPalette(img, k, 0, seedK);
      for (const iterations of [1, 5, 12]) {
        expect(Array.from(kmeansPalette(img, k, iterations, seedK))).toEqual(
          Array.from(lloyd(img.r, img.g, img.b, start, iterations)),
        );
      }
    }
  });
});
