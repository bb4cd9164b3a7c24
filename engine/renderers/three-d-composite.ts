import { GuidedUpsampler } from '../filters/guided-upsample';
import { type Image8, type Plane, type Raster, rgb8Out, upsampleToRGB8 } from '../raster';

/**
 * 3d compositing: the shaded work raster back to the photo's size `img` as RGB8. Enlarged outputs get the photo's own
 * edges back (guided by `guide`, the photo's luma at work size) where the subject is in focus (eyes, teeth,
 * silhouettes crisp instead of stair-stepped); the half-focus fringe (hair against a blurred backdrop) counts as in
 * focus; without people (`focus` undefined) the whole frame is. The fit's gain is capped at 1: the photo's detail
 * comes back at most as strong as it was, so a fine texture (a ribbed sweater) is never amplified. `focus` is
 * consumed.
 */
export function composite(lit: Raster, img: Image8, guide: Plane, focus: Float32Array | undefined): Buffer {
  const { width: w, height: h } = img;
  if (w <= lit.width * 1.2) return upsampleToRGB8(lit, w, h);
  if (focus) for (let i = 0; i < focus.length; i++) focus[i] = Math.min(1, 2 * focus[i]);
  const gu = new GuidedUpsampler(guide, lit, img, 1, 1e-3, focus, 1);
  const bytes = rgb8Out(w, h);
  for (let y = 0; y < h; y++) gu.rowRGB8(y, bytes.oc);
  return bytes.out;
}
