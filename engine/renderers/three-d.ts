import type { Scene } from '../analysis/scene';
import { saturate, tint, tone } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { enlargeEyes, eyeWarps, warpScene } from '../filters/eye-warp';
import { cloneRaster, type Image8, luma } from '../raster';
import { toWork } from './common';
import { composite } from './three-d-composite';
import { EYE_ENLARGE, paintEyes } from './three-d-eyes';
import { sculpt } from './three-d-face';
import { depthOfField } from './three-d-focus';
import { relight } from './three-d-lighting';

/**
 * "3D animation" look (best honest approximation without a generative model):
 *  1. strong edge-preserving smoothing -> clean plastic/skin surfaces,
 *  2. relighting from a pseudo-normal map derived from multi-scale smoothed luminance
 *     (soft key light from the top left, Blinn-Phong specular, warm rim light, soft ambient occlusion),
 *  3. warm, saturated grade,
 *  4. depth of field: background blurred by a saliency x centre-weighted subject mask,
 *  5. enlarged outputs: guided upsampling brings the photo's edges back at full sharpness in focus.
 * With people (`scene`), it becomes a still from an animated film: eyes enlarged by a fold-free warp from the
 * face landmarks with catchlights in the irises, skin as smooth clay inside the face and skin mask while eyes,
 * brows and lips stay crisp, soft toon shading from a warm key light, and the person mask (not a saliency
 * guess) for the depth of field and a rim light along the silhouette.
 * The steps live beside this file: three-d-face.ts (clay skin, brows, head volume: modelling the people),
 * three-d-lighting.ts (pseudo-normals, key light, toon shading), three-d-focus.ts (depth of field, rim light),
 * three-d-composite.ts (back to output size) and three-d-eyes.ts (the film eyes painted last).
 */
export function threeD(photo: Image8, found?: Scene): Buffer {
  const warps = found ? eyeWarps(found, photo.width, EYE_ENLARGE) : [];
  const img = found ? enlargeEyes(photo, warps) : photo;
  // from here on the face as the warp left it: bigger eyes, brows pushed aside
  const scene = found && warpScene(found, warps, photo.width);
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  const guide = luma(work); // the photo's own luma at work size, for the guided upsampling at the end
  const photoWork = scene ? cloneRaster(work) : undefined;
  // 1. smoothing: wide then narrow domain transform -> smooth gradients, crisp silhouettes.
  domainTransform(work, 40 * s, 0.3, 3);
  domainTransform(work, 14 * s, 0.14, 2);
  const people = scene && photoWork ? sculpt(scene, work, photoWork, s) : undefined;
  // 3. grade (before lighting so highlights stay clean)
  tone(work, 0.88, 1.05, 0.5, 0.03);
  saturate(work, 1.3);
  tint(work, 1.05, 1.0, 0.93);
  const lit = relight(work, s, people);
  // 4. depth of field: the person mask, else saliency x centre prior.
  const focus = depthOfField(lit, work, s, people);
  const out = composite(lit, img, guide, focus);
  if (scene) paintEyes(out, w, h, scene);
  return out;
}
