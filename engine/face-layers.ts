/**
 * What face keeping (face-keep.ts) paints with, per face: the feathered oval over the face in render pixels (held to
 * the person mask where that covers the face), and in the oval's rectangle the photo, the photo smoothed edge-aware,
 * and the render's local colour over the smoothed photo's.
 */
import type { Analysis, FaceInfo, PersonMask } from './analysis/types';
import { facePlacement } from './face-compare';
import { gaussBlur } from './filters/blur';
import { domainTransform } from './filters/edge-aware';
import { createRaster, type Image8, type Raster, smoothstep } from './raster';

/** The oval around a face in render pixels, and the rectangle it needs. */
export interface Oval {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  cos: number;
  sin: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
}

function ovalOf(f: FaceInfo, k: number, width: number, height: number): Oval {
  const p = facePlacement(f, k);
  // the face-mesh box runs brow to chin and cheek to cheek: the oval takes in the forehead, ears and jaw line
  const rx = 0.5 * f.box[2] * k * 1.3;
  const ry = 0.5 * f.box[3] * k * 1.3;
  const reach = Math.max(rx, ry);
  const x0 = Math.max(0, Math.floor(p.c[0] - reach));
  const y0 = Math.max(0, Math.floor(p.c[1] - reach));
  const x1 = Math.min(width, Math.ceil(p.c[0] + reach));
  const y1 = Math.min(height, Math.ceil(p.c[1] + reach));
  return {
    cx: p.c[0],
    cy: p.c[1],
    rx,
    ry,
    cos: Math.cos(p.angle),
    sin: Math.sin(p.angle),
    x0,
    y0,
    w: x1 - x0,
    h: y1 - y0,
  };
}

function regionRaster(img: Image8, o: Oval): Raster {
  const r = createRaster(o.w, o.h);
  for (let y = 0; y < o.h; y++) {
    for (let x = 0, i = y * o.w, j = ((o.y0 + y) * img.width + o.x0) * 3; x < o.w; x++, i++, j += 3) {
      r.r[i] = img.data[j] / 255;
      r.g[i] = img.data[j + 1] / 255;
      r.b[i] = img.data[j + 2] / 255;
    }
  }
  return r;
}

/** What a face's blends are made of, in its oval's rectangle. */
export interface FaceLayers {
  oval: Oval;
  /** The feathered oval, 0..1. */
  mask: Float32Array;
  /** The photo, the photo smoothed, and the (toned) render's local colour minus the smoothed photo's. */
  photo: Raster;
  smooth: Raster;
  colour?: Raster;
  /** Blur of the local colour. */
  sigma: number;
}

/** The person mask (analysis frame, 0..255) at a point of the analysis frame, bilinear. */
function personAt(m: PersonMask, x: number, y: number): number {
  const fx = Math.min(m.width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(m.height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(m.width - 1, x0 + 1);
  const y1 = Math.min(m.height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const d = m.data;
  const top = d[y0 * m.width + x0] * (1 - ax) + d[y0 * m.width + x1] * ax;
  const bottom = d[y1 * m.width + x0] * (1 - ax) + d[y1 * m.width + x1] * ax;
  return (top * (1 - ay) + bottom * ay) / 255;
}

/** Whether the person mask holds the face: ≥ 0.7 on average over the middle of its box. */
function coversFace(m: PersonMask, f: FaceInfo): boolean {
  const [x, y, w, h] = f.box;
  let sum = 0;
  for (let j = 1; j <= 5; j++) for (let i = 1; i <= 5; i++) sum += personAt(m, x + (w * i) / 6, y + (h * j) / 6);
  return sum / 25 >= 0.7;
}

export function layers(photo: Image8, f: FaceInfo, analysis: Analysis): FaceLayers {
  const analysisWidth = analysis.width;
  const k = photo.width / analysisWidth;
  const oval = ovalOf(f, k, photo.width, photo.height);
  const { w, h } = oval;
  const mask = new Float32Array(w * h);
  // the person mask (256 px) draws a small face's head poorly: it bounds the oval only where it covers the face
  const person = analysis.mask && coversFace(analysis.mask, f) ? analysis.mask : null;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = oval.x0 + x + 0.5;
      const py = oval.y0 + y + 0.5;
      const dx = px - oval.cx;
      const dy = py - oval.cy;
      const u = (dx * oval.cos + dy * oval.sin) / oval.rx;
      const v = (-dx * oval.sin + dy * oval.cos) / oval.ry;
      const m = 1 - smoothstep(0.72, 1, Math.hypot(u, v));
      // only the person: the photo's backdrop in the oval's corners would glow through the style's
      mask[y * w + x] = m > 0 && person ? m * smoothstep(0.2, 0.7, personAt(person, px / k, py / k)) : m;
    }
  }
  const src = regionRaster(photo, oval);
  const side = Math.max(f.box[2], f.box[3]) * (photo.width / analysisWidth);
  // pores and fine wrinkles flattened, features kept: the styles' own abstraction, applied gently
  const smooth = domainTransform(
    { width: w, height: h, r: src.r.slice(), g: src.g.slice(), b: src.b.slice() },
    Math.max(1, side * 0.03),
    0.1,
    2,
  );
  return { oval, mask, photo: src, smooth, sigma: Math.max(1, side * 0.06) };
}

/** The render's local colour over the smoothed photo's, from `render` as it is now (its tone moved back). */
export function colourOf(l: FaceLayers, render: Image8): Raster {
  const { w, h } = l.oval;
  const out = regionRaster(render, l.oval);
  const colour = createRaster(w, h);
  for (const c of ['r', 'g', 'b'] as const) {
    const a = gaussBlur(out[c], w, h, l.sigma);
    const b = gaussBlur(l.smooth[c], w, h, l.sigma);
    for (let i = 0; i < a.length; i++) colour[c][i] = a[i] - b[i];
  }
  return colour;
}
