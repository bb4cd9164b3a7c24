import type { Raster } from '../raster';

/** Saturation scale around Rec. 709 luma (1 = unchanged). In place. */
export function saturate(img: Raster, amount: number): Raster {
  const { r, g, b } = img;
  const n = r.length;
  for (let i = 0; i < n; i++) {
    const l = 0.2126 * r[i] + 0.7152 * g[i] + 0.0722 * b[i];
    r[i] = l + (r[i] - l) * amount;
    g[i] = l + (g[i] - l) * amount;
    b[i] = l + (b[i] - l) * amount;
  }
  return img;
}

/**
 * Vibrance: a saturation boost that is strong for muted colours and fades out for already vivid ones
 * (dull fur and skin gain colour, saturated reds do not clip); near-neutral greys stay neutral. In place.
 */
export function vibrance(img: Raster, amount: number): Raster {
  const { r, g, b } = img;
  for (let i = 0; i < r.length; i++) {
    const R = r[i];
    const G = g[i];
    const B = b[i];
    const max = R > G ? (R > B ? R : B) : G > B ? G : B;
    const min = R < G ? (R < B ? R : B) : G < B ? G : B;
    const sat = max > 1e-6 ? (max - min) / max : 0;
    const t = sat < 0.04 ? 0 : sat > 0.16 ? 1 : (sat - 0.04) / 0.12; // greys are left alone
    const k = 1 + amount * t * (1 - sat) * (1 - sat);
    const l = 0.2126 * R + 0.7152 * G + 0.0722 * B;
    r[i] = l + (R - l) * k;
    g[i] = l + (G - l) * k;
    b[i] = l + (B - l) * k;
  }
  return img;
}

/** Per-channel gain (white balance / tint). In place. */
export function tint(img: Raster, kr: number, kg: number, kb: number): Raster {
  const { r, g, b } = img;
  for (let i = 0; i < r.length; i++) {
    r[i] *= kr;
    g[i] *= kg;
    b[i] *= kb;
  }
  return img;
}

/** Tone curve applied to every channel: gamma then contrast around `pivot`. In place. */
export function tone(img: Raster, gamma: number, contrast = 1, pivot = 0.5, lift = 0): Raster {
  const lut = toneLut(gamma, contrast, pivot, lift);
  const apply = (p: Float32Array) => {
    for (let i = 0; i < p.length; i++) {
      let v = p[i];
      v = v < 0 ? 0 : v > 1 ? 1 : v;
      p[i] = lut[(v * 1024 + 0.5) | 0];
    }
  };
  apply(img.r);
  apply(img.g);
  apply(img.b);
  return img;
}

/** The tone curve as a 1025-entry table over [0,1]: index with (v * 1024 + 0.5) | 0, v clamped to [0, 1]. */
export function toneLut(gamma: number, contrast = 1, pivot = 0.5, lift = 0): Float32Array {
  const lut = new Float32Array(1025);
  for (let k = 0; k <= 1024; k++) {
    let v = (k / 1024) ** gamma;
    v = pivot + (v - pivot) * contrast;
    lut[k] = lift + v * (1 - lift);
  }
  return lut;
}

export interface HSV {
  h: number;
  s: number;
  v: number;
}

/** RGB (0..1) -> HSV with h in [0,6). */
export function rgbToHsv(r: number, g: number, b: number, out: HSV): HSV {
  const max = r > g ? (r > b ? r : b) : g > b ? g : b;
  const min = r < g ? (r < b ? r : b) : g < b ? g : b;
  const d = max - min;
  let h = 0;
  if (d > 1e-6) {
    if (max === r) h = (g - b) / d;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    if (h < 0) h += 6;
  }
  out.h = h;
  out.s = max > 1e-6 ? d / max : 0;
  out.v = max;
  return out;
}
