/**
 * The skin-tone measure: how far a render moved each face's skin colour from the photo's, in CIE Lab (D65). The
 * skin is sampled on both cheeks and the forehead (face-mesh landmarks: skin in nearly every face, away from eyes,
 * brows, lips, beards and glasses' lenses), the darkest and lightest fifth of those photo pixels dropped (shadow
 * lines, specular highlights, a stray hair). One definition for the tests, the bench and face-keep.ts.
 */
import type { Analysis, FaceInfo } from './analysis/types';
import type { Image8 } from './raster';

/** |ΔL*| of the mean skin colour, render against photo, that every style keeps (measured: see engine/README.md). */
export const SKIN_MAX_DL = 15;
/**
 * Distance of the mean a*b* (hue and chroma), render against photo. Not for a render without colour (a pencil
 * sketch): it keeps the skin's lightness, and has no hue to keep.
 */
export const SKIN_MAX_DAB = 20;

export type Lab = [number, number, number];

function linear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}
const LIN = Float64Array.from({ length: 256 }, (_, i) => linear(i));
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
const fInv = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : (116 * t - 16) / (24389 / 27));
const WHITE = [0.95047, 1, 1.08883] as const;

/** sRGB bytes (may be fractional) -> CIE Lab, D65. */
export function rgbToLab(r: number, g: number, b: number): Lab {
  const lr = Number.isInteger(r) ? LIN[r] : linear(r);
  const lg = Number.isInteger(g) ? LIN[g] : linear(g);
  const lb = Number.isInteger(b) ? LIN[b] : linear(b);
  const x = f((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / WHITE[0]);
  const y = f(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
  const z = f((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / WHITE[2]);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIE Lab (D65) -> sRGB in 0..255, unclamped. */
export function labToRgb(L: number, a: number, b: number): [number, number, number] {
  const fy = (L + 16) / 116;
  const x = WHITE[0] * fInv(fy + a / 500);
  const y = fInv(fy);
  const z = WHITE[2] * fInv(fy - b / 200);
  const g = (v: number) => 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.max(0, v) ** (1 / 2.4) - 0.055);
  return [
    g(3.2404542 * x - 1.5371385 * y - 0.4985314 * z),
    g(-0.969266 * x + 1.8760108 * y + 0.041556 * z),
    g(0.0556434 * x - 0.2040259 * y + 1.0572252 * z),
  ];
}

/** Face-mesh landmarks at the middle of each cheek and of the forehead. */
const SKIN_POINTS = [205, 425, 151];
/** Sample disk radius / the face box's width. */
const DISK = 0.07;

/** Pixel indices (of an image `width` x `height`, analysis frame scaled by k) of face `f`'s skin samples. */
function skinPixels(f: FaceInfo, k: number, width: number, height: number): number[] {
  const r = Math.max(1, DISK * f.box[2] * k);
  const out: number[] = [];
  for (const p of SKIN_POINTS) {
    const [cx, cy] = [f.landmarks[p][0] * k, f.landmarks[p][1] * k];
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(height - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(width - 1, Math.ceil(cx + r)); x++) {
        if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) out.push(y * width + x);
      }
    }
  }
  return out;
}

export interface SkinTone {
  /** Mean skin colour in the photo and in the render. */
  photo: Lab;
  render: Lab;
  /** render − photo in L*, and the distance of their a*b*. */
  dL: number;
  dAB: number;
  /** The render has no colour at all (every pixel grey): held to the L* bound alone. */
  grey: boolean;
}

/** Whether a face's skin tone is within the bound every style keeps. */
export function skinToneKept(t: Pick<SkinTone, 'dL' | 'dAB' | 'grey'>): boolean {
  return Math.abs(t.dL) <= SKIN_MAX_DL && (t.grey || t.dAB <= SKIN_MAX_DAB);
}

/** Whether every pixel of an RGB8 image is grey (R = G = B). */
export function isGrey(img: Image8): boolean {
  const d = img.data;
  for (let j = 0; j < d.length; j += 3) if (d[j] !== d[j + 1] || d[j] !== d[j + 2]) return false;
  return true;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * The skin tone of face `f` (analysis coordinates, frame `analysisWidth` wide) in `photo` and `render`. `grey`:
 * whether the render is grey (isGrey, passed in by a caller measuring several faces).
 */
export function faceSkinTone(
  photo: Image8,
  render: Image8,
  f: FaceInfo,
  analysisWidth: number,
  grey = isGrey(render),
): SkinTone {
  const kp = photo.width / analysisWidth;
  const kr = render.width / photo.width;
  const px = skinPixels(f, kp, photo.width, photo.height);
  const labs = px.map((i) => rgbToLab(photo.data[i * 3], photo.data[i * 3 + 1], photo.data[i * 3 + 2]));
  const order = labs.map((_, j) => j).sort((a, b) => labs[a][0] - labs[b][0] || a - b);
  const kept = order.slice(Math.floor(order.length * 0.2), Math.ceil(order.length * 0.8));
  const sp: [number, number, number] = [0, 0, 0];
  const sr: [number, number, number] = [0, 0, 0];
  for (const j of kept) {
    const i = px[j];
    // the same place in the render (its own size), nearest pixel
    const x = Math.min(render.width - 1, Math.floor(((i % photo.width) + 0.5) * kr));
    const y = Math.min(render.height - 1, Math.floor((Math.floor(i / photo.width) + 0.5) * kr));
    const o = (y * render.width + x) * 3;
    for (let c = 0; c < 3; c++) {
      sp[c] += photo.data[i * 3 + c] / kept.length;
      sr[c] += render.data[o + c] / kept.length;
    }
  }
  // Lab of the mean colours: a flat style's dots and ink average as the eye sees them from afar
  const mp = rgbToLab(sp[0], sp[1], sp[2]);
  const mr = rgbToLab(sr[0], sr[1], sr[2]);
  return {
    photo: mp.map(r1) as Lab,
    render: mr.map(r1) as Lab,
    dL: r1(mr[0] - mp[0]),
    dAB: r1(Math.hypot(mr[1] - mp[1], mr[2] - mp[2])),
    grey,
  };
}

/** The skin tone of every face of `analysis` (found in `photo`) in `render`. */
export function skinTones(photo: Image8, render: Image8, analysis: Analysis): SkinTone[] {
  const grey = isGrey(render);
  return analysis.faces.map((f) => faceSkinTone(photo, render, f, analysis.width, grey));
}
