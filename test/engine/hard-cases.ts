/**
 * Hard cases for the analysis, made from the fixtures: portraits shrunk so their faces are 3-10 % of the photo's
 * long side, pasted on a photo without people (the motorcycle), several at once as a group, and greyscale and dark
 * copies. A face's size is the height of its face-mesh box, measured once on each portrait (FACE_SHARE).
 */
import sharp, { type OverlayOptions } from 'sharp';
import { labToRgb, rgbToLab } from '../../engine/skin-tone';
import { photo } from './helpers';

/** Face-mesh box height / the portrait's long side, as the analysis measures it on the fixture. */
const FACE_SHARE: Record<string, number> = { 'astronaut.png': 0.21, 'grace_hopper.jpg': 0.336, 'camera.png': 0.148 };
export const PORTRAITS = Object.keys(FACE_SHARE);

export interface Placed {
  name: string;
  /** The face's share of the photo's long side. */
  share: number;
  /** Where the portrait's centre goes, as a share of the canvas width and height. */
  at: [number, number];
}

/** A LONG x 3/4 LONG photo: the motorcycle scene with the portraits pasted in at their face sizes. */
export async function scene(placed: readonly Placed[], long = 1600): Promise<Buffer> {
  const w = long;
  const h = Math.round(long * 0.75);
  const layers: OverlayOptions[] = [];
  for (const p of placed) {
    const meta = await sharp(photo(p.name)).metadata();
    const srcLong = Math.max(meta.width ?? 0, meta.height ?? 0);
    const k = (p.share * long) / (FACE_SHARE[p.name] * srcLong);
    const pw = Math.max(1, Math.round((meta.width ?? 0) * k));
    const ph = Math.max(1, Math.round((meta.height ?? 0) * k));
    const input = await sharp(photo(p.name)).resize(pw, ph, { kernel: 'lanczos3' }).removeAlpha().png().toBuffer();
    layers.push({ input, left: Math.round(p.at[0] * w - pw / 2), top: Math.round(p.at[1] * h - ph / 2) });
  }
  return sharp(photo('motorcycle_left.png'))
    .resize(w, h, { fit: 'cover' })
    .composite(layers)
    .removeAlpha()
    .png()
    .toBuffer();
}

/** The photo in grey (three equal channels, as a greyscale photo decodes). */
export async function greyscale(png: Buffer): Promise<Buffer> {
  return sharp(png).greyscale().toColourspace('srgb').png().toBuffer();
}

/** The photo underexposed: every value times `k` (0.25: a dim room at night). */
export async function darken(png: Buffer, k = 0.25): Promise<Buffer> {
  return sharp(png).linear(k, 0).png().toBuffer();
}

/** The three portraits side by side, faces 3 %, 5 % and 8 % of the long side. */
export function group(): Promise<Buffer> {
  return scene([
    { name: 'astronaut.png', share: 0.03, at: [0.2, 0.5] },
    { name: 'grace_hopper.jpg', share: 0.05, at: [0.5, 0.45] },
    { name: 'camera.png', share: 0.08, at: [0.8, 0.5] },
  ]);
}

/**
 * A dark-skinned portrait, made from one (no dark-skinned photo with a clear licence ships in Debian's packages):
 * every skin-coloured pixel (Lab hue 20-80°, chroma 8-50, smoothly weighted) darkened in CIE Lab, L* × `k` and
 * chroma × 0.9, so a light face of L* 65-88 becomes one of L* 29-40 with the same features.
 */
export async function darkSkin(png: Buffer, k = 0.45): Promise<Buffer> {
  const { data, info } = await sharp(png)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = Buffer.from(data);
  for (let j = 0; j < data.length; j += 3) {
    const [L, a, b] = rgbToLab(data[j], data[j + 1], data[j + 2]);
    const chroma = Math.hypot(a, b);
    const hue = (Math.atan2(b, a) * 180) / Math.PI;
    const w = ramp(hue, 10, 20, 80, 90) * ramp(chroma, 4, 8, 50, 60) * ramp(L, 15, 25, 95, 100);
    if (w <= 0) continue;
    const s = 1 - w * 0.1;
    const rgb = labToRgb(L * (1 - w * (1 - k)), a * s, b * s);
    for (let c = 0; c < 3; c++) out[j + c] = Math.round(Math.min(255, Math.max(0, rgb[c])));
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png()
    .toBuffer();
}

/** 0 below a, rising to 1 at b, 1 up to c, falling to 0 at d. */
function ramp(v: number, a: number, b: number, c: number, d: number): number {
  if (v <= a || v >= d) return 0;
  if (v < b) return (v - a) / (b - a);
  if (v > c) return (d - v) / (d - c);
  return 1;
}
