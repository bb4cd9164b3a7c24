import { personAt, type Scene } from '../analysis/scene';
import { antialiasedRaster } from '../filters/antialias';
import { domainTransform } from '../filters/edge-aware';
import { enlargeEyes, eyeWarps, warpScene } from '../filters/eye-warp';
import { type Image8, luma, workSize } from '../raster';
import { WORK_LONG } from './common';
import { composite } from './three-d-composite';
import { EYE_ENLARGE, eyesSeen, paintCatchlights } from './three-d-eyes';
import { faceCrop, faceFields, keepFaces } from './three-d-face';
import { personFocus } from './three-d-focus';
import { toonShade } from './three-d-shade';

/**
 * "3D animation" look as a filter (no generative model): the photo's own geometry shaded like a clay / toon render.
 *  1. edge-preserving smoothing: texture (pores, fabric, foliage) goes, shading and shapes (a nose's shadow, glasses'
 *     rims, brows) stay; faces keep more of the photo, small faces most (three-d-face.ts),
 *  2. toon shading: the luminance drawn as a few soft bands, a warm key / cool fill grade, chroma bounded by the
 *     photo's, outlines on strong edges only (three-d-shade.ts),
 *  3. with people: the backdrop (as flat as the smoothing left it) softly defocused from backdrop pixels only, a
 *     warm rim light inside the silhouette (three-d-focus.ts),
 *  4. back to output size by guided upsampling, which brings the photo's edges back where in focus, never stronger
 *     than they were (three-d-composite.ts),
 *  5. eyes enlarged a little, with a catchlight, only where the photo shows open eyes with their whites
 *     (three-d-eyes.ts): never on sunglasses or faces too small to see them.
 * What keeps fine stripes from turning into moiré: the work raster is low-passed (filters/antialias.ts), the bands
 * are drawn on the shading only, and the upsampling never amplifies the photo's detail.
 */
export function threeD(photo: Image8, found?: Scene): Buffer {
  const seenFaces = found ? found.faces.filter((f) => eyesSeen(f, photo, found)) : [];
  const seen = found && seenFaces.length > 0 ? { ...found, faces: seenFaces } : undefined;
  const warps = seen ? eyeWarps(seen, photo.width, EYE_ENLARGE) : [];
  const img = warps.length > 0 ? enlargeEyes(photo, warps) : photo;
  // from here on the faces as the warp left them
  const scene = found && warpScene(found, warps, photo.width);
  const { width: w, height: h } = img;
  // the work raster low-passed before anything is smoothed or banded: no stripe folds back into a beat
  const { w: ww, h: wh } = workSize(w, h, WORK_LONG);
  const s = Math.max(ww, wh) / 512;
  const work = antialiasedRaster(img, ww, wh);
  const faces = scene && faceFields(scene, ww, wh);
  const facePhoto = faces && faceCrop(work, faces); // the part of the photo faces take back, before the smoothing
  const guide = luma(work); // the photo's own luma at work size, for the guided upsampling at the end
  // 1. wide then narrow domain transform: smooth surfaces, crisp silhouettes, soft shading kept
  domainTransform(work, 30 * s, 0.28, 3);
  domainTransform(work, 10 * s, 0.1, 2);
  if (faces && facePhoto) keepFaces(work, facePhoto, faces, s);
  // 2. toon shading
  toonShade(work, s, faces?.face);
  // 3. the person against a softened backdrop, with a rim light; a face is in focus even where the mask missed it
  let focus: Float32Array | undefined;
  if (scene && faces) {
    const person = personAt(scene, ww, wh);
    for (let i = 0; i < person.length; i++) person[i] = Math.max(person[i], faces.face[i]);
    focus = personFocus(person, work, ww, wh, s, 2 * s);
  }
  // 4. output size
  const out = composite(work, img, guide, focus);
  // 5. catchlights in the eyes the photo shows
  if (seen) paintCatchlights(out, w, h, warpScene(seen, warps, photo.width));
  return out;
}
