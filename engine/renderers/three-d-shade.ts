import { gaussBlur, gaussBlurInPlace } from '../filters/blur';
import { dogField } from '../filters/lines';
import { pixelMath } from '../pixel-math';
import type { Raster } from '../raster';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/** Luminance bands of the toon shading over [0, 1], and the share of each band its soft ramp takes. */
const BANDS = 5;
const RAMP = 0.55;
/** How far the luminance moves toward its banded value (the rest keeps the photo's own gradients). */
const BAND_MIX = 0.7;
/**
 * The grade may raise a pixel's chroma to at most this multiple of the smoothed photo's: animated-film colour is
 * vivid, but a face keeps its complexion (no orange push), so on faces the bound is FACE_CHROMA_GAIN.
 */
const MAX_CHROMA_GAIN = 1.3;
const FACE_CHROMA_GAIN = 1.1;

/** The midtone lift's exponent (gamma 0.9) and the tables of `lift`, which computes x ** LIFT without Math.pow. */
const LIFT = 0.9;
const LIFT_BITS = 10;
const LIFT_E = 200; // binary exponents |e| <= LIFT_E by table; the rest (never a luminance) by Math.pow
const liftMant = new Float64Array(1 << LIFT_BITS); // c ** LIFT at each mantissa bin's centre c in [1, 2)
const liftInv = new Float64Array(1 << LIFT_BITS); // 1 / c
const liftExp = new Float64Array(2 * LIFT_E + 1); // (2 ** e) ** LIFT
const liftScale = new Float64Array(2 * LIFT_E + 1); // 2 ** -e
for (let k = 0; k < 1 << LIFT_BITS; k++) {
  const c = 1 + (k + 0.5) / (1 << LIFT_BITS);
  liftMant[k] = c ** LIFT;
  liftInv[k] = 1 / c;
}
for (let e = -LIFT_E; e <= LIFT_E; e++) {
  liftExp[e + LIFT_E] = (2 ** e) ** LIFT;
  liftScale[e + LIFT_E] = 2 ** -e;
}
/** Binomial series of (1 + t) ** LIFT to t^5 (|t| < 1 / 2048 in a bin: the next term is under 1e-19). */
const B1 = LIFT;
const B2 = (B1 * (LIFT - 1)) / 2;
const B3 = (B2 * (LIFT - 2)) / 3;
const B4 = (B3 * (LIFT - 3)) / 4;
const B5 = (B4 * (LIFT - 4)) / 5;
const bits = new Float64Array(1);
const bitsHi = new Uint32Array(bits.buffer, 4, 1); // the high word (little-endian): sign, exponent, top of mantissa

/**
 * x ** LIFT for x > 0, within 1e-15 of Math.pow (which costs ~60 ns a call, a tenth of this style at 1024 px): the
 * power of x's binary exponent and of its mantissa bin's centre from tables, the rest by a short series. Rounded
 * to float32 as the shaded planes are, it matched Math.pow on every one of 10^7 random luminances.
 */
function lift(x: number): number {
  bits[0] = x;
  const hi = bitsHi[0];
  const e = (hi >>> 20) - 1023;
  if (e < -LIFT_E || e > LIFT_E) return x ** LIFT;
  const k = (hi >>> (20 - LIFT_BITS)) & ((1 << LIFT_BITS) - 1);
  const t = x * liftScale[e + LIFT_E] * liftInv[k] - 1;
  return liftExp[e + LIFT_E] * liftMant[k] * (1 + t * (B1 + t * (B2 + t * (B3 + t * (B4 + t * B5)))));
}

/**
 * Clay / toon shading of the smoothed work raster, in place: the image's own shading (its real geometry: a nose's
 * shadow, the rim of glasses) drawn as a few soft luminance bands, a warm key on what is lit and a cool fill in the
 * shade (relative to the surroundings, so no face turns orange and no backdrop blue), a soft glow around highlights,
 * a vibrance bounded per pixel by the smoothed photo's own chroma (tighter on `faces`, 0..1), and dark outlines
 * only where the smoothed image still has strong edges. Hue is kept: every change is a luminance gain or a chroma
 * scale around the pixel's luma, except the small warm/cool tint. `s` is the work scale (long side / 512).
 */
export function toonShade(work: Raster, s: number, faces?: Float32Array): void {
  const { width: ww, height: wh, r, g, b } = work;
  const n = ww * wh;
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) L[i] = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
  // bands, contrast and tint are drawn from the shading (periods over ~5 work px); the finer rest of the luminance
  // (a stripe, a hair) is added back as it is: never quantised, so never amplified or folded into a beat
  const base = gaussBlur(L, ww, wh, Math.max(0.8, 1.5 * s));
  // the light's direction is unknown: lit means brighter than the neighbourhood, shade darker
  const around = gaussBlur(L, ww, wh, 20 * s);
  // a rendered light's soft glow around highlights
  const glow = new Float32Array(n);
  for (let i = 0; i < n; i++) glow[i] = L[i] > 0.62 ? L[i] - 0.62 : 0;
  const bloom = gaussBlurInPlace(glow, ww, wh, 6 * s);
  // dark side of strong edges only (XDoG's linear part): an outline, never a halo on the bright side
  const edge = dogField(L, ww, wh, Math.max(0.6, 0.9 * s));
  for (let i = 0; i < n; i++) {
    const R = r[i];
    const G = g[i];
    const B = b[i];
    const l = L[i];
    const m = base[i];
    // soft bands: flat in the middle of a band, a smooth ramp to the next
    const t = m * BANDS;
    const q = Math.floor(t);
    const banded = (q + smoothstep(0.5 - RAMP / 2, 0.5 + RAMP / 2, t - q)) / BANDS;
    // a clay render's light: a touch more contrast against the surroundings
    const rel = m - around[i];
    let lo = l + (banded - m) * BAND_MIX + 0.3 * rel + 0.45 * bloom[i];
    const ink = smoothstep(0.025, 0.06, edge[i]);
    lo *= 1 - 0.38 * ink;
    // a rendered scene's light is fuller than a photo's exposure: midtones lifted a little (gamma 0.9)
    lo = lo > 0 ? lift(lo) : 0;
    const gain = l > 1e-4 ? lo / l : 1;
    // warm key, cool fill: up to 3 % on red/blue, by how lit the pixel is against its surroundings
    const key = smoothstep(-0.12, 0.12, rel) * 2 - 1;
    const kr = 1 + 0.03 * key;
    const kb = 1 - (key > 0 ? 0.035 : 0.02) * key;
    // chroma: vibrance for muted colours, bounded by the photo's own (max - min) at this pixel
    const hi = R > G ? (R > B ? R : B) : G > B ? G : B;
    const low = R < G ? (R < B ? R : B) : G < B ? G : B;
    const c0 = hi - low;
    const sat = hi > 1e-4 ? c0 / hi : 0;
    const bound = faces ? MAX_CHROMA_GAIN + (FACE_CHROMA_GAIN - MAX_CHROMA_GAIN) * faces[i] : MAX_CHROMA_GAIN;
    let k = 1 + 0.7 * (1 - sat) * (1 - sat) * smoothstep(0.03, 0.12, sat);
    if (k > bound) k = bound;
    let rr = (l + (R - l) * k) * gain * kr;
    let gg = (l + (G - l) * k) * gain;
    let bb = (l + (B - l) * k) * gain * kb;
    // the tint adds chroma to warm colours too: the bound holds for the result, taken back around its luma
    const c1 =
      (rr > gg ? (rr > bb ? rr : bb) : gg > bb ? gg : bb) - (rr < gg ? (rr < bb ? rr : bb) : gg < bb ? gg : bb);
    const limit = bound * c0 * gain + 0.004;
    if (c1 > limit) {
      const m = limit / c1;
      const lr = 0.2126 * rr + 0.7152 * gg + 0.0722 * bb;
      rr = lr + (rr - lr) * m;
      gg = lr + (gg - lr) * m;
      bb = lr + (bb - lr) * m;
    }
    r[i] = rr;
    g[i] = gg;
    b[i] = bb;
  }
}
