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
  /** The portrait changed at its own size first (an occluder, dark skin), as PNG bytes. */
  edit?: (png: Buffer) => Promise<Buffer>;
  /** Degrees the shrunk portrait is turned by (clockwise), its new corners transparent. */
  rotate?: number;
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
    const src = p.edit ? await p.edit(photo(p.name)) : photo(p.name);
    const m = await sharp(src).metadata();
    let input = await sharp(src)
      .resize(Math.max(1, Math.round((m.width ?? 0) * k)), Math.max(1, Math.round((m.height ?? 0) * k)), {
        kernel: 'lanczos3',
      })
      .removeAlpha()
      .png()
      .toBuffer();
    if (p.rotate) {
      input = await sharp(input)
        .ensureAlpha()
        .rotate(p.rotate, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
    }
    const r = await sharp(input).metadata();
    const pw = r.width ?? 0;
    const ph = r.height ?? 0;
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

/**
 * An instrument held across the face (a guitar neck, a violin): a wooden bar over astronaut.png's mouth and chin
 * (its face is x 178-274, y 69-176 of 512) at `angle` degrees, and a dark body over one cheek with `side`.
 */
export async function occlude(png: Buffer, { angle = -12, side = false, heavy = false } = {}): Promise<Buffer> {
  const body = side ? `<ellipse cx="${heavy ? 250 : 262}" cy="140" rx="34" ry="62" fill="#2b1a10"/>` : '';
  const y = heavy ? 122 : 142;
  const svg =
    `<svg width="512" height="512"><g transform="rotate(${angle} 226 ${y + 18})">` +
    `<rect x="110" y="${y}" width="240" height="${heavy ? 48 : 40}" rx="6" fill="#8a5a2b"/>` +
    `<rect x="110" y="${y + 8}" width="240" height="4" fill="#d9c9a0"/><rect x="110" y="${y + 24}" width="240" height="4" fill="#d9c9a0"/>` +
    `</g>${body}</svg>`;
  return sharp(png)
    .composite([{ input: Buffer.from(svg) }])
    .removeAlpha()
    .png()
    .toBuffer();
}

/** The face looking down as far as 2D shows it: the portrait foreshortened to `k` of its height. */
export async function lookDown(png: Buffer, k = 0.75): Promise<Buffer> {
  const m = await sharp(png).metadata();
  return sharp(png)
    .resize(m.width ?? 0, Math.round((m.height ?? 0) * k), { fit: 'fill' })
    .png()
    .toBuffer();
}

/** Two people photographed indoors in greyscale, dimmed (the grey indoor photo): a scene of the two. */
async function greyPair(a: Placed, b: Placed): Promise<Buffer> {
  return darken(await greyscale(await scene([a, b])), 0.7);
}

/** The missed-face cases of issue 33 (a musician, a grey indoor pair) and their variations, by name. */
export const MISSED_CASES: Record<string, () => Promise<Buffer>> = {
  'occluded lower face 12 %': () =>
    scene([{ name: 'astronaut.png', share: 0.12, at: [0.5, 0.45], edit: (p) => occlude(p) }]),
  'occluded lower face + side 12 %': () =>
    scene([{ name: 'astronaut.png', share: 0.12, at: [0.5, 0.45], edit: (p) => occlude(p, { side: true }) }]),
  'nose and mouth hidden 12 %': () =>
    scene([{ name: 'astronaut.png', share: 0.12, at: [0.5, 0.45], edit: (p) => occlude(p, { heavy: true }) }]),
  'nose, mouth and one eye hidden 12 %': () =>
    scene([
      { name: 'astronaut.png', share: 0.12, at: [0.5, 0.45], edit: (p) => occlude(p, { heavy: true, side: true }) },
    ]),
  'dark skin, dim, nose and mouth hidden, rolled 20° 12 %': async () =>
    darken(
      await scene([
        {
          name: 'astronaut.png',
          share: 0.12,
          at: [0.5, 0.45],
          edit: async (p) => occlude(await darkSkin(p), { heavy: true }),
          rotate: 20,
        },
      ]),
      0.5,
    ),
  'dark skin, nose, mouth and one eye hidden 12 %': () =>
    scene([
      {
        name: 'astronaut.png',
        share: 0.12,
        at: [0.5, 0.45],
        edit: async (p) => occlude(await darkSkin(p), { heavy: true, side: true }),
      },
    ]),
  'nose and mouth hidden, rolled 35° 10 %': () =>
    scene([
      { name: 'astronaut.png', share: 0.1, at: [0.5, 0.45], edit: (p) => occlude(p, { heavy: true }), rotate: 35 },
    ]),
  'nose, mouth and one eye hidden 8 %': () =>
    scene([
      { name: 'astronaut.png', share: 0.08, at: [0.5, 0.45], edit: (p) => occlude(p, { heavy: true, side: true }) },
    ]),
  'looking down, nose, mouth and one eye hidden 12 %': () =>
    scene([
      {
        name: 'astronaut.png',
        share: 0.12,
        at: [0.5, 0.45],
        edit: async (p) => lookDown(await occlude(p, { heavy: true, side: true }), 0.7),
      },
    ]),
  'rolled +30° 10 %': () => scene([{ name: 'astronaut.png', share: 0.1, at: [0.5, 0.45], rotate: 30 }]),
  'rolled -30° 12 % (grace)': () => scene([{ name: 'grace_hopper.jpg', share: 0.12, at: [0.5, 0.45], rotate: -30 }]),
  'looking down, rolled 20°, occluded 12 %': () =>
    scene([
      {
        name: 'astronaut.png',
        share: 0.12,
        at: [0.5, 0.45],
        edit: async (p) => lookDown(await occlude(p)),
        rotate: 20,
      },
    ]),
  'dark skin, occluded 12 %': () =>
    scene([{ name: 'astronaut.png', share: 0.12, at: [0.5, 0.45], edit: async (p) => occlude(await darkSkin(p)) }]),
  'dark skin, dim, occluded, rolled 25° 12 %': async () =>
    darken(
      await scene([
        {
          name: 'astronaut.png',
          share: 0.12,
          at: [0.5, 0.45],
          edit: async (p) => lookDown(await occlude(await darkSkin(p)), 0.85),
          rotate: 25,
        },
      ]),
      0.5,
    ),
  'dark skin, dim, occluded + side 8 %': async () =>
    darken(
      await scene([
        {
          name: 'astronaut.png',
          share: 0.08,
          at: [0.4, 0.45],
          edit: async (p) => occlude(await darkSkin(p), { side: true }),
        },
      ]),
      0.5,
    ),
  'grey indoor pair 12 % + 5 %': () =>
    greyPair(
      { name: 'grace_hopper.jpg', share: 0.12, at: [0.35, 0.5] },
      { name: 'astronaut.png', share: 0.05, at: [0.7, 0.45] },
    ),
  'grey indoor pair 14 % + 4 %': () =>
    greyPair(
      { name: 'astronaut.png', share: 0.14, at: [0.3, 0.45] },
      { name: 'grace_hopper.jpg', share: 0.04, at: [0.72, 0.5] },
    ),
  'grey indoor pair 10 % + 6 %': () =>
    greyPair(
      { name: 'grace_hopper.jpg', share: 0.1, at: [0.3, 0.5] },
      { name: 'astronaut.png', share: 0.06, at: [0.7, 0.5] },
    ),
  // the large face alone, sure and 15 % of the long side, is what a preview's whole view stops at
  'grey indoor pair 15 % + 4 %, the large face sure': () =>
    greyPair(
      { name: 'grace_hopper.jpg', share: 0.15, at: [0.3, 0.45] },
      { name: 'astronaut.png', share: 0.04, at: [0.75, 0.5] },
    ),
};
