import { personAt, type Scene } from '../analysis/scene';
import { blurFields, gaussBlurInPlace } from '../filters/blur';
import { domainTransformPlane } from '../filters/edge-aware';
import { ValueNoiseRows } from '../filters/noise';
import { pixelMath } from '../pixel-math';
import { type Image8, lumaFromRGB8, rowBuffers, scaleOf } from '../raster';
import { featureInk } from './common';

// bound once at load (see pixel-math.ts)
const { byte, hash2, smoothstep } = pixelMath;

/**
 * Pencil sketch: colour-dodge line extraction on a denoised luminance, directional hatching
 * for the shading and a paper grain. Output is neutral grey (R = G = B). Runs at full resolution:
 * graphite strokes are the detail this style is about.
 */
export function sketch(img: Image8, scene?: Scene): Buffer {
  const { width: w, height: h } = img;
  const sc = scaleOf(w, h);
  // with people: the background drawn lighter and looser, the faces' features as clean pencil lines
  const features = featureInk(scene, w, 0.8);
  const L = domainTransformPlane(lumaFromRGB8(img), w, h, 6 * sc, 0.1, 1);
  // Colour dodge of L with its blurred inverse == L / blur(L): thin graphite strokes on edges. Both blurs come from
  // one decimated copy and the soft person mask is made at that size; all three are read back row by row.
  const fields = blurFields(L, w, h, [Math.max(1.2, 3.2 * sc), Math.max(1, 2.5 * sc)]);
  const [blurredF, toneF] = fields.planes;
  const { up } = fields;
  const person =
    scene && gaussBlurInPlace(personAt(scene, up.sw, up.sh), up.sw, up.sh, (Math.max(1, 3 * sc) * up.sw) / w);
  const [ff, blurred, toneL, pr] = rowBuffers(w, 4);
  const paper = new ValueNoiseRows(w, h, Math.max(4, 14 * sc), 11);
  const wob = new ValueNoiseRows(w, h, Math.max(6, 22 * sc), 23);
  const period = Math.max(2.5, 4.2 * sc);
  const k1 = ((2 * Math.PI) / period) * Math.SQRT1_2;
  const SIN_N = 1024;
  const sinLut = new Float32Array(SIN_N + 1);
  for (let k = 0; k <= SIN_N; k++) sinLut[k] = 0.5 + 0.5 * Math.sin((k / SIN_N) * 2 * Math.PI);
  const wave = (a: number) => {
    let f = a * TWO_PI_INV;
    f -= Math.floor(f);
    return sinLut[(f * SIN_N) | 0];
  };
  const segLen = Math.max(8, 26 * sc); // stroke length, output px
  const out = Buffer.allocUnsafe(w * h * 3);
  for (let y = 0, i = 0; y < h; y++) {
    const pp = paper.row(y);
    const wb = wob.row(y);
    if (features) features.row(y, ff);
    up.row(blurredF, y, blurred);
    up.row(toneF, y, toneL);
    if (person) up.row(person, y, pr);
    for (let x = 0, j = y * w * 3; x < w; x++, i++, j += 3) {
      const l = L[i];
      const dodge = Math.min(1, (l + 0.015) / (blurred[x] + 0.015));
      let line = dodge * dodge * dodge; // darken strokes
      line = 1 - (1 - line) * 1.1;
      // Shading: hatching that appears in mid tones, cross-hatching in dark tones.
      const t = toneL[x];
      const dark = 1 - smoothstep(0.25, 0.85, t);
      const phase = wb[x] * 6;
      const h1 = wave((x + y) * k1 + phase);
      const h2 = wave((x - y) * k1 + phase * 1.3);
      let stroke1 = smoothstep(1 - dark * 0.9, 1.05 - dark * 0.9 + 0.25, h1);
      const dark2 = 1 - smoothstep(0.08, 0.45, t);
      let stroke2 = smoothstep(1 - dark2 * 0.9, 1.05 - dark2 * 0.9 + 0.25, h2);
      // Hand hatching: each line is a row of separate strokes (own pressure, tapered ends, a few gaps), not an
      // endless ruled line; deep shadows stay dense (a hand presses on there too).
      const dense = 0.6 * dark2;
      if (stroke1 > 0)
        stroke1 *= dense + (1 - dense) * pencilStroke((x + y) * k1 + phase, (x - y) * Math.SQRT1_2, segLen, 41);
      if (stroke2 > 0)
        stroke2 *= dense + (1 - dense) * pencilStroke((x - y) * k1 + phase * 1.3, (x + y) * Math.SQRT1_2, segLen, 59);
      const hatch = 1 - 0.42 * stroke1 * (0.6 + 0.4 * pp[x]) - 0.38 * stroke2;
      const base = 0.985 - 0.05 * (1 - pp[x]) - 0.02 * hash2(x, y, 5);
      let v = base * hatch * Math.max(0, line);
      v = v * (0.86 + 0.14 * smoothstep(0.0, 0.35, t)); // a little graphite smudge in the darkest areas
      if (person) {
        const bg = 1 - pr[x];
        v += (base - v) * bg * 0.6; // background: a light suggestion of the scene
        v *= 1 - 0.8 * ff[x];
      }
      const g = byte(v);
      out[j] = g;
      out[j + 1] = g;
      out[j + 2] = g;
    }
  }
  return out;
}

const TWO_PI_INV = 1 / (2 * Math.PI);

/**
 * Pressure of the hatching stroke at a point: `across` is the hatching wave's phase (its crest index names
 * the line), `along` the position along the line in px. Lines are cut into strokes of about `len` px, each
 * with its own start offset and pressure, fading in and out at its ends; one in nine is left out.
 */
function pencilStroke(across: number, along: number, len: number, seed: number): number {
  const line = Math.floor(across * TWO_PI_INV + 0.25);
  const u = along / len + hash2(line, 0, seed) * 7;
  const k = Math.floor(u);
  const p = u - k;
  const r = hash2(line, k, seed + 1) * 9; // one draw: which ninth (gap or not), and the pressure within it
  if (r < 1) return 0.15;
  const pressure = 0.55 + 0.45 * (r - Math.floor(r));
  const ends = smoothstep(0, 0.14, p) * (1 - smoothstep(0.86, 1, p));
  return pressure * (0.35 + 0.65 * ends);
}
