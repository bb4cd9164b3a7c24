import { gaussBlur } from '../filters/blur';
import { domainTransformPlane } from '../filters/edge-aware';
import { valueNoise, whiteNoise } from '../filters/noise';
import { createRaster, luma, type Raster, scaleOf, smoothstep } from '../raster';

/**
 * Pencil sketch: colour-dodge line extraction on a denoised luminance, directional hatching
 * for the shading and a paper grain. Output is neutral grey (R = G = B).
 */
export function sketch(img: Raster): Raster {
  const { width: w, height: h } = img;
  const sc = scaleOf(w, h);
  const L = domainTransformPlane(luma(img), w, h, 6 * sc, 0.1, 2);
  // Colour dodge of L with its blurred inverse == L / blur(L): thin graphite strokes on edges.
  const blurred = gaussBlur(L, w, h, Math.max(1.2, 3.2 * sc));
  const toneL = gaussBlur(L, w, h, Math.max(1, 2.5 * sc));
  const paper = valueNoise(w, h, Math.max(4, 14 * sc), 11);
  const grain = whiteNoise(w, h, 5);
  const out = createRaster(w, h);
  const o = out.r;
  const period = Math.max(2.5, 4.2 * sc);
  const k1 = (2 * Math.PI) / period;
  const wob = valueNoise(w, h, Math.max(6, 22 * sc), 23);
  const SIN_N = 1024;
  const sinLut = new Float32Array(SIN_N + 1);
  for (let k = 0; k <= SIN_N; k++) sinLut[k] = 0.5 + 0.5 * Math.sin((k / SIN_N) * 2 * Math.PI);
  const TWO_PI_INV = 1 / (2 * Math.PI);
  const wave = (a: number) => {
    let f = a * TWO_PI_INV;
    f -= Math.floor(f);
    return sinLut[(f * SIN_N) | 0];
  };
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      const l = L[i];
      const dodge = Math.min(1, (l + 0.015) / (blurred[i] + 0.015));
      let line = dodge * dodge * dodge; // darken strokes
      line = 1 - (1 - line) * 1.1;
      // Shading: hatching that appears in mid tones, cross-hatching in dark tones.
      const t = toneL[i];
      const dark = 1 - smoothstep(0.25, 0.85, t);
      const phase = wob[i] * 6;
      const h1 = wave((x + y) * k1 * 0.7071 + phase);
      const h2 = wave((x - y) * k1 * 0.7071 + phase * 1.3);
      const stroke1 = smoothstep(1 - dark * 0.9, 1.05 - dark * 0.9 + 0.25, h1);
      const dark2 = 1 - smoothstep(0.08, 0.45, t);
      const stroke2 = smoothstep(1 - dark2 * 0.9, 1.05 - dark2 * 0.9 + 0.25, h2);
      const hatch = 1 - 0.42 * stroke1 * (0.6 + 0.4 * paper[i]) - 0.38 * stroke2;
      const base = 0.985 - 0.05 * (1 - paper[i]) - 0.02 * grain[i];
      let v = base * hatch * Math.max(0, line);
      v = v * (0.86 + 0.14 * smoothstep(0.0, 0.35, t)); // a little graphite smudge in the darkest areas
      o[i] = v;
    }
  }
  out.g.set(o);
  out.b.set(o);
  return out;
}
