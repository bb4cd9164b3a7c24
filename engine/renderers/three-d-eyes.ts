import { EYE_LOOPS } from '../analysis/face-landmarks';
import { frameScale, type Scene } from '../analysis/scene';
import type { FaceInfo as Face, Point } from '../analysis/types';
import { pixelMath } from '../pixel-math';
import type { Image8 } from '../raster';

// bound once at load (see pixel-math.ts)
const { smoothstep } = pixelMath;

/** Enlargement of seen eyes at their centre (the corners move out by about half of it). */
export const EYE_ENLARGE = 0.18;

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

/** Calls `at(x, y, d)` for each pixel centre inside eye `e`'s opening of face `f`, d its distance / the iris radius. */
function eachInEye(f: Face, e: 0 | 1, k: number, w: number, h: number, at: (x: number, y: number, d: number) => void) {
  const eye = e === 0 ? f.eyes.left : f.eyes.right;
  const poly = EYE_LOOPS[e].map((i): Point => [f.landmarks[i][0] * k, f.landmarks[i][1] * k]);
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  const cx = eye.center[0] * k;
  const cy = eye.center[1] * k;
  const R = Math.max(0.5, eye.irisRadius * k);
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(h - 1, Math.ceil(Math.max(...ys))); y++) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x <= Math.min(w - 1, Math.ceil(Math.max(...xs))); x++) {
      if (inside(poly, x + 0.5, y + 0.5)) at(x, y, Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / R);
    }
  }
}

/**
 * Whether the photo shows both of face `f`'s eyes: open (lid opening over 0.2 of the width), at least 9 px wide, and
 * each with a white around a darker iris that the photo really has (sclera at least 0.07 brighter than the iris and
 * not itself dark). The face mesh places eyes behind sunglasses and on faces too small to see them; painting film
 * eyes there puts catchlights on black glass, so those eyes are left as the photo has them.
 */
export function eyesSeen(f: Face, img: Image8, scene: Scene): boolean {
  const k = frameScale(scene, img.width);
  const { data, width: w, height: h } = img;
  for (const e of [0, 1] as const) {
    const eye = e === 0 ? f.eyes.left : f.eyes.right;
    if (eye.open < 0.2 || eye.width * k < 9) return false;
    let [iris, ni, white, nw] = [0, 0, 0, 0];
    eachInEye(f, e, k, w, h, (x, y, d) => {
      const j = (y * w + x) * 3;
      const l = (0.2126 * data[j] + 0.7152 * data[j + 1] + 0.0722 * data[j + 2]) / 255;
      if (d < 0.8) [iris, ni] = [iris + l, ni + 1];
      else if (d > 1.15) [white, nw] = [white + l, nw + 1];
    });
    if (ni < 3 || nw < 3) return false;
    const sclera = white / nw;
    if (sclera < 0.25 || sclera - iris / ni < 0.07) return false;
  }
  return true;
}

/**
 * A small soft catchlight up and left in each iris (toward a key light), clipped to the eye's opening, on the final
 * RGB8 (in place; `scene` holds only the faces whose eyes are seen, as the warp left them). No ring or pupil is
 * painted: the iris keeps the photo's own colour.
 */
export function paintCatchlights(out: Buffer, w: number, h: number, scene: Scene): void {
  const k = frameScale(scene, w);
  for (const f of scene.faces) {
    for (const e of [0, 1] as const) {
      const eye = e === 0 ? f.eyes.left : f.eyes.right;
      const R = eye.irisRadius * k * (1 + EYE_ENLARGE);
      if (R < 2) continue;
      const c1x = eye.center[0] * k - 0.35 * R;
      const c1y = eye.center[1] * k - 0.38 * R;
      const r1 = Math.max(0.8, 0.22 * R);
      eachInEye(f, e, k, w, h, (x, y) => {
        const light = 0.85 * (1 - smoothstep(r1 - 0.8, r1 + 0.8, Math.hypot(x + 0.5 - c1x, y + 0.5 - c1y)));
        if (light <= 0) return;
        const j = (y * w + x) * 3;
        for (let c = 0; c < 3; c++) out[j + c] = Math.round(out[j + c] + (255 - out[j + c]) * light);
      });
    }
  }
}
