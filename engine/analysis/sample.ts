/**
 * Sampling for the analysis models, in plain JS so the same pixels always give the same model input: rotated square
 * crops, the whole image stretched or letterboxed, contrast normalised; and running a graph model on them.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Image8 } from '../raster';
import { tf } from './models';
import type { Point } from './types';

/**
 * A crop of `img` centred at (cx, cy), `size` px wide, rotated by `angle` (radians; the crop's x axis runs along
 * that direction), sampled bilinearly to n x m floats in [0, 1] (m rows, square by default; outside the image:
 * black). `flip` mirrors it horizontally. Returns the pixels and the crop -> image mapping.
 */
export function crop(img: Image8, cx: number, cy: number, size: number, angle: number, n: number, flip = false, m = n) {
  const out = new Float32Array(n * m * 3);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const k = size / n;
  const toImage = (u: number, v: number): Point => {
    const du = ((flip ? n - u : u) - n / 2) * k;
    const dv = (v - m / 2) * k;
    return [cx + du * c - dv * s, cy + du * s + dv * c];
  };
  const { data, width: w, height: h } = img;
  for (let v = 0; v < m; v++) {
    const dv = (v + 0.5 - m / 2) * k;
    for (let u = 0; u < n; u++) {
      // toImage(u + 0.5, v + 0.5), inlined: no array per sample
      const du = ((flip ? n - (u + 0.5) : u + 0.5) - n / 2) * k;
      const x = cx + du * c - dv * s;
      const y = cy + du * s + dv * c;
      const fx = x - 0.5;
      const fy = y - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const ax = fx - x0;
      const ay = fy - y0;
      const o = (v * n + u) * 3;
      for (let dy = 0; dy <= 1; dy++) {
        const yy = y0 + dy;
        if (yy < 0 || yy >= h) continue;
        const wy = dy ? ay : 1 - ay;
        for (let dx = 0; dx <= 1; dx++) {
          const xx = x0 + dx;
          if (xx < 0 || xx >= w) continue;
          const wgt = wy * (dx ? ax : 1 - ax);
          const j = (yy * w + xx) * 3;
          out[o] += data[j] * wgt;
          out[o + 1] += data[j + 1] * wgt;
          out[o + 2] += data[j + 2] * wgt;
        }
      }
      out[o] /= 255;
      out[o + 1] /= 255;
      out[o + 2] /= 255;
    }
  }
  return { pixels: out, toImage };
}

/**
 * The values of the tensors `compute` returns, every other tensor it made freed. Read outside tf.tidy on purpose:
 * tidy walks what its function returns looking for tensors, and walks a typed array value by value (each key into a
 * Set), which cost more CPU than the models themselves on their larger outputs.
 */
export function valuesOf(compute: () => tf.Tensor | tf.Tensor[]): Float32Array[] {
  const out = tf.tidy(compute);
  const list = Array.isArray(out) ? out : [out];
  try {
    // dataSync copies out of the backend's memory (wasm: a slice of its heap), so the values outlive the tensors
    return list.map((t) => t.dataSync() as Float32Array);
  } finally {
    for (const t of list) t.dispose();
  }
}

/**
 * Runs a single-input graph model on n x n x 3 pixels; returns each output's values (the model's outputs, or the
 * named nodes of its graph).
 */
export function run(
  model: GraphModel,
  pixels: Float32Array,
  n: number,
  m = n,
  batch = 1,
  outputs?: string[],
): Float32Array[] {
  return valuesOf(() => model.execute(tf.tensor4d(pixels, [batch, m, n, 3]), outputs));
}

/**
 * `src` (sw x sh pixels of `channels` interleaved values) resampled bilinearly to dw x dh, pixel centres aligned and
 * edges clamped: `put` receives each output value (as a double, before any rounding) with its index in the output.
 */
export function resampleBilinear(
  src: ArrayLike<number>,
  sw: number,
  sh: number,
  dw: number,
  dh: number,
  channels: number,
  put: (i: number, value: number) => void,
): void {
  for (let v = 0; v < dh; v++) {
    const fy = Math.min(sh - 1, Math.max(0, ((v + 0.5) * sh) / dh - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const ay = fy - y0;
    for (let u = 0; u < dw; u++) {
      const fx = Math.min(sw - 1, Math.max(0, ((u + 0.5) * sw) / dw - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const ax = fx - x0;
      for (let c = 0; c < channels; c++) {
        const i00 = (y0 * sw + x0) * channels + c;
        const i01 = (y0 * sw + x1) * channels + c;
        const i10 = (y1 * sw + x0) * channels + c;
        const i11 = (y1 * sw + x1) * channels + c;
        const t = src[i00] + (src[i01] - src[i00]) * ax;
        const b = src[i10] + (src[i11] - src[i10]) * ax;
        put((v * dw + u) * channels + c, t + (b - t) * ay);
      }
    }
  }
}

/** The whole image stretched to n x n floats in [0, 1] (the segmentation model's input). */
export function stretch(img: Image8, n: number): { pixels: Float32Array } {
  const out = new Float32Array(n * n * 3);
  resampleBilinear(img.data, img.width, img.height, n, n, 3, (i, v) => {
    out[i] = v / 255;
  });
  return { pixels: out };
}

/**
 * Stretches the luma of model input (floats in [0, 1], RGB interleaved) so its 1st..99th percentiles span
 * LOW..HIGH, in place, when they span less: dark and flat photos (night, underexposed, hazy greyscale) reach the
 * detectors with the contrast they were trained on. Hue is kept (every channel gets the same gain and offset).
 */
export function normaliseContrast(px: Float32Array): void {
  const LOW = 0.04;
  const HIGH = 0.96;
  const hist = new Uint32Array(256);
  const n = px.length / 3;
  for (let i = 0; i < px.length; i += 3) {
    const l = 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
    hist[Math.min(255, Math.max(0, Math.round(l * 255)))]++;
  }
  let acc = 0;
  let lo = 0;
  while (lo < 255 && acc + hist[lo] < n * 0.01) acc += hist[lo++];
  acc = 0;
  let hi = 255;
  while (hi > 0 && acc + hist[hi] < n * 0.01) acc += hist[hi--];
  const span = (hi - lo) / 255;
  if (span <= 0 || span >= HIGH - LOW) return;
  // at most 8x: a nearly uniform crop is not turned into noise
  const gain = Math.min(8, (HIGH - LOW) / span);
  const off = LOW - (lo / 255) * gain;
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i] * gain + off));
}
