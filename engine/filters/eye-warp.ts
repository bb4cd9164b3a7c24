import { frameScale, type Scene } from '../analysis/scene';
import type { EyeInfo, Point } from '../analysis/types';
import type { Image8 } from '../raster';

/**
 * Animated-film eyes: each eye enlarged by a smooth radial warp centred on its iris, in an ellipse along the
 * eye's axis. Sampling maps an output point q to q' = c + (q - c) / s(rho): s = 1 + A on an inner plateau
 * (rho <= PLATEAU: the whole eye, lids and lashes included, is simply zoomed, so it keeps its shape), easing to 1
 * by a smoothstep at the ellipse's edge (rho = 1) and 1 outside. rho / s(rho) increases as long as
 * rho s'(rho) < s(rho), which holds for A < (1 - PLATEAU) / 1.5 (checked by test/engine/eye-warp.test.ts), so
 * the warp is one-to-one (no folds, no tearing), smooth at the edge, and the iris centre stays put. Several
 * eyes compose (each step is one-to-one, so the composition is too).
 */
/** Share of the ellipse zoomed uniformly. */
const PLATEAU = 0.45;
/** Largest enlargement that keeps the warp fold-free: rho s' < s with s' <= 1.5 A / (1 - PLATEAU). */
export const MAX_EYE_ENLARGE = (1 - PLATEAU) / 1.5;

export interface EyeWarp {
  cx: number;
  cy: number;
  /** Unit vector along the eye (corner to corner). */
  ux: number;
  uy: number;
  /** Semi-axes of the ellipse along and across the eye, px. */
  ra: number;
  rb: number;
  /** Enlargement at the centre minus 1. */
  amount: number;
}

/** The warps for every eye in `scene` at an image of width `w`. */
export function eyeWarps(scene: Scene, w: number, amount: number): EyeWarp[] {
  if (!(amount >= 0 && amount < MAX_EYE_ENLARGE)) throw new RangeError(`eye enlargement ${amount} would fold the warp`);
  const k = frameScale(scene, w);
  const out: EyeWarp[] = [];
  for (const f of scene.faces) {
    for (const e of [f.eyes.left, f.eyes.right]) {
      const [a, b] = e.corners;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const ra = 1.15 * e.width * k;
      out.push({
        cx: e.center[0] * k,
        cy: e.center[1] * k,
        ux: (b[0] - a[0]) / len,
        uy: (b[1] - a[1]) / len,
        ra,
        rb: 0.8 * ra,
        amount,
      });
    }
  }
  return out;
}

function scaleAt(wp: EyeWarp, dx: number, dy: number): number {
  const u = (dx * wp.ux + dy * wp.uy) / wp.ra;
  const v = (-dx * wp.uy + dy * wp.ux) / wp.rb;
  const r2 = u * u + v * v;
  if (r2 >= 1) return 1;
  const r = Math.sqrt(r2);
  if (r <= PLATEAU) return 1 + wp.amount;
  const t = (r - PLATEAU) / (1 - PLATEAU);
  return 1 + wp.amount * (1 - t * t * (3 - 2 * t));
}

/** Where the warped image at (x, y) samples the original. */
export function warpSource(warps: readonly EyeWarp[], x: number, y: number, out: Point = [0, 0]): Point {
  let px = x;
  let py = y;
  for (const wp of warps) {
    const dx = px - wp.cx;
    const dy = py - wp.cy;
    const s = scaleAt(wp, dx, dy);
    px = wp.cx + dx / s;
    py = wp.cy + dy / s;
  }
  out[0] = px;
  out[1] = py;
  return out;
}

/** Where an original point lands in the warped image (the inverse of warpSource, by bisection per step). */
export function warpPoint(warps: readonly EyeWarp[], p: Point): Point {
  let [px, py] = p;
  for (let k = warps.length - 1; k >= 0; k--) {
    const wp = warps[k];
    const dx = px - wp.cx;
    const dy = py - wp.cy;
    if (scaleAt(wp, dx, dy) === 1) continue; // outside the ellipse (or no enlargement): the point stays
    // find t >= 1 with t / s(t * d) = 1, i.e. the output point c + t d samples c + d
    let lo = 1;
    let hi = 1 + wp.amount + 1e-9;
    for (let i = 0; i < 40; i++) {
      const t = (lo + hi) / 2;
      if (t / scaleAt(wp, dx * t, dy * t) < 1) lo = t;
      else hi = t;
    }
    const t = (lo + hi) / 2;
    px = wp.cx + dx * t;
    py = wp.cy + dy * t;
  }
  return [px, py];
}

/**
 * The scene as it is after the warps (made by eyeWarps at an image of width `w`): every landmark and eye corner moved
 * where the enlargement put it, so regions drawn from it (the features kept crisp, the skin turned to clay) follow
 * the enlarged eyes and the brows the warp pushed aside. Iris centres stay put; radii are the caller's to scale.
 */
export function warpScene(scene: Scene, warps: readonly EyeWarp[], w: number): Scene {
  if (warps.length === 0) return scene;
  const k = frameScale(scene, w);
  const move = (p: Point): Point => {
    const [x, y] = warpPoint(warps, [p[0] * k, p[1] * k]);
    return [x / k, y / k];
  };
  const eye = (e: EyeInfo): EyeInfo => {
    const corners: [Point, Point] = [move(e.corners[0]), move(e.corners[1])];
    return { ...e, corners, width: Math.hypot(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]) };
  };
  return {
    ...scene,
    faces: scene.faces.map((f) => ({
      ...f,
      eyes: { left: eye(f.eyes.left), right: eye(f.eyes.right) },
      landmarks: f.landmarks.map(move),
    })),
  };
}

/** A copy of `img` with the eyes enlarged (bilinear resampling inside the warps' boxes only). */
export function enlargeEyes(img: Image8, warps: readonly EyeWarp[]): Image8 {
  const { width: w, height: h, data } = img;
  const out = Buffer.from(data);
  const src: Point = [0, 0];
  for (const wp of warps) {
    const r = Math.max(wp.ra, wp.rb) + 1;
    const x0 = Math.max(0, Math.floor(wp.cx - r));
    const x1 = Math.min(w - 1, Math.ceil(wp.cx + r));
    const y0 = Math.max(0, Math.floor(wp.cy - r));
    const y1 = Math.min(h - 1, Math.ceil(wp.cy + r));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        warpSource(warps, x + 0.5, y + 0.5, src);
        const fx = Math.min(w - 1, Math.max(0, src[0] - 0.5));
        const fy = Math.min(h - 1, Math.max(0, src[1] - 0.5));
        const xa = fx | 0;
        const ya = fy | 0;
        const xb = Math.min(w - 1, xa + 1);
        const yb = Math.min(h - 1, ya + 1);
        const ax = fx - xa;
        const ay = fy - ya;
        const o = (y * w + x) * 3;
        for (let c = 0; c < 3; c++) {
          const t = data[(ya * w + xa) * 3 + c] + (data[(ya * w + xb) * 3 + c] - data[(ya * w + xa) * 3 + c]) * ax;
          const b = data[(yb * w + xa) * 3 + c] + (data[(yb * w + xb) * 3 + c] - data[(yb * w + xa) * 3 + c]) * ax;
          out[o + c] = Math.round(t + (b - t) * ay);
        }
      }
    }
  }
  return { data: out, width: w, height: h };
}
