import { EYE_LOOPS, type Scene } from '../analysis/scene';
import type { Point } from '../analysis/types';
import { pixelMath } from '../pixel-math';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/** Enlargement of the eyes at their centre (the corners move out by about half of it). */
export const EYE_ENLARGE = 0.34;

/** Even-odd point-in-polygon. */
function inside(poly: Point[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/**
 * Film eyes on the final RGB8 (in place; `scene` as warped): a darker limbal ring and pupil, a crisp catchlight up and left (toward
 * the key light) and a small second one down and right, all clipped to the eye's (warped) opening.
 */
export function paintEyes(out: Buffer, w: number, h: number, scene: Scene): void {
  const k = w / scene.width;
  for (const f of scene.faces) {
    const eyes = [f.eyes.left, f.eyes.right];
    for (let e = 0; e < 2; e++) {
      const eye = eyes[e];
      if (eye.open < 0.16) continue; // closed or squinting: nothing to light
      const poly = EYE_LOOPS[e].map((i): Point => [f.landmarks[i][0] * k, f.landmarks[i][1] * k]);
      const cx = eye.center[0] * k;
      const cy = eye.center[1] * k;
      const R = eye.irisRadius * k * (1 + EYE_ENLARGE);
      if (R < 1.2) continue;
      const c1x = cx - 0.38 * R;
      const c1y = cy - 0.42 * R;
      const r1 = Math.max(0.7, 0.28 * R);
      const c2x = cx + 0.4 * R;
      const c2y = cy + 0.32 * R;
      const r2 = Math.max(0.5, 0.12 * R);
      const x0 = Math.max(0, Math.floor(cx - R - 2));
      const x1 = Math.min(w - 1, Math.ceil(cx + R + 2));
      const y0 = Math.max(0, Math.floor(cy - R - 2));
      const y1 = Math.min(h - 1, Math.ceil(cy + R + 2));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5;
          const py = y + 0.5;
          if (!inside(poly, px, py)) continue;
          const d = Math.hypot(px - cx, py - cy) / R;
          // limbal ring and pupil: darker, never a hard edge
          const ring = smoothstep(0.7, 0.95, d) * (1 - smoothstep(1.0, 1.2, d));
          const pupil = 1 - smoothstep(0.3, 0.45, d);
          const dark = 1 - 0.35 * ring - 0.45 * pupil;
          const l1 = 1 - smoothstep(r1 - 0.7, r1 + 0.7, Math.hypot(px - c1x, py - c1y));
          const l2 = (1 - smoothstep(r2 - 0.6, r2 + 0.6, Math.hypot(px - c2x, py - c2y))) * 0.7;
          const light = Math.max(l1 * 0.95, l2);
          const j = (y * w + x) * 3;
          for (let c = 0; c < 3; c++) {
            const v = out[j + c] * dark;
            out[j + c] = Math.round(v + (255 - v) * light);
          }
        }
      }
    }
  }
}
