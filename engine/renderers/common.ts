import { faceRegionsAt, featureStrokes, personAt, type Scene, StrokeRows, skinColour } from '../analysis/scene';
import { gaussBlurInPlace } from '../filters/blur';
import type { CelOptions } from '../filters/cel';
import { domainTransform, domainTransformAtHalf } from '../filters/edge-aware';
import { dogField } from '../filters/lines';
import {
  type Image8,
  type Raster,
  rasterFromRGB8,
  rowBuffers,
  scaleOf,
  smoothstep,
  Upsampler,
  workSize,
} from '../raster';

/**
 * A style renders interleaved RGB8 into interleaved RGB8 of the same size (pure, deterministic).
 * Styles abstract at a work resolution and finish at full size in one fused pass (no full-size float planes).
 * `scene` is the photo's analysis when it found people (see ../analysis/types.ts `hasPeople`); without one a
 * style renders exactly as it always has.
 */
export type StyleFn = (img: Image8, scene?: Scene) => Buffer;

/** Long side of the internal work resolution used for region abstraction (flat colour, lighting). */
export const WORK_LONG = 480;

/** Downscale to the work resolution; returns the work raster and its scale relative to 512 px. */
export function toWork(img: Image8, opts: { smooth?: boolean } = {}): { work: Raster; s: number } {
  let maxLong = WORK_LONG;
  // Textured styles (`smooth`: watercolor, oil paint, pixel art) abstract small outputs (previews) at 3/4 of
  // their size: their washes and blocks upsample invisibly under textures drawn at full size by the finishing
  // pass, and a thumbnail batch costs less. Flat-colour styles keep full size for hard region borders, and
  // 3d for crisp faces (its whole look is the upsampled work image).
  const long = Math.max(img.width, img.height);
  if (opts.smooth && long < maxLong) maxLong = Math.max(Math.min(long, 160), Math.round(long * 0.75));
  const ws = workSize(img.width, img.height, maxLong);
  return { work: rasterFromRGB8(img, ws.w, ws.h), s: Math.max(ws.w, ws.h) / 512 };
}

/**
 * Edge-preserving abstraction: flattens texture and noise (mottled backgrounds, skin pores, fur)
 * into smooth regions while keeping object boundaries. Two domain-transform passes: a wide one
 * with a loose range to kill texture, a narrow one to re-sharpen borders. `range` scales both ranges (lower keeps
 * weaker edges: thin structures against a dark sky).
 */
export function abstractRegions(work: Raster, s: number, strength = 1, range = 1): Raster {
  domainTransform(work, 28 * s * strength, 0.22 * range, 3);
  domainTransform(work, 10 * s * strength, 0.12 * range, 2);
  return work;
}

/**
 * The share of their strength the lines keep behind people in anime and comic, whose backdrop is not simplified
 * (objects there must stay readable): texture such as grass drops out, the outlines of things stay.
 */
export const INKED_BG_LINES = 0.4;

/** How much each work pixel (ww x wh; `s`, toWork's scale) belongs to a person: the person mask, softened. */
export function personWeight(scene: Scene, ww: number, wh: number, s: number): Float32Array {
  return gaussBlurInPlace(personAt(scene, ww, wh), ww, wh, Math.max(0.7, 2 * s));
}

/**
 * Behind people, a second and much stronger abstraction (large calm areas, no camouflage blotches), blended
 * in by the inverse of the (softened) person mask. In place; returns that person weight at work size, for
 * styles that also thin out their background lines.
 */
export function simplifyBackground(work: Raster, s: number, scene: Scene, strength = 1): Float32Array {
  const ww = work.width;
  const wh = work.height;
  const person = personWeight(scene, ww, wh, s);
  // domainTransformHalf, its enlargement read row by row into the blend (no full-size copy)
  const bg = domainTransformAtHalf(work, 60 * s * strength, 0.4, 3);
  const up = new Upsampler(bg.width, bg.height, ww, wh);
  const [br, bgr, bb] = rowBuffers(ww, 3);
  for (let y = 0; y < wh; y++) {
    up.row(bg.r, y, br);
    up.row(bg.g, y, bgr);
    up.row(bg.b, y, bb);
    for (let x = 0, i = y * ww; x < ww; x++, i++) {
      const k = 1 - person[i];
      work.r[i] += (br[x] - work.r[i]) * k;
      work.g[i] += (bgr[x] - work.g[i]) * k;
      work.b[i] += (bb[x] - work.b[i]) * k;
    }
  }
  return person;
}

/**
 * With people: DoG lines kept on the subject, thinned behind it (`bgKeep` of their strength), and the weak ones
 * off the faces' skin, where the landmark strokes draw the features instead of wrinkles and shading. In place on D.
 */
export function focusLines(
  D: Float32Array,
  ww: number,
  wh: number,
  person: Float32Array,
  scene: Scene,
  s: number,
  bgKeep = 0.2,
): void {
  const skin = faceSkinAt(scene, ww, wh, s);
  // on the inner skin only the weak lines (wrinkles, shading) go: glasses, nostrils, the jaw and hair line stay
  for (let i = 0; i < ww * wh; i++)
    D[i] = D[i] * (bgKeep + (1 - bgKeep) * person[i]) - 0.03 * smoothstep(0.5, 1, skin[i]);
}

/**
 * The faces' skin at a style's work size (w x h; `s`, toWork's scale, follows from it), found once per scene and
 * size: skinAnchors and focusLines share it (read-only).
 */
const faceSkins = new WeakMap<Scene, { w: number; h: number; skin: Float32Array }>();
function faceSkinAt(scene: Scene, w: number, h: number, s: number): Float32Array {
  const kept = faceSkins.get(scene);
  if (kept && kept.w === w && kept.h === h) return kept.skin;
  const { skin } = faceRegionsAt(scene, w, h, Math.max(0.5, 0.8 * s));
  faceSkins.set(scene, { w, h, skin });
  return skin;
}

/**
 * Cel anchors with people: the faces' own skin colour (as it is in `work` now) as a colour cluster of its own, so
 * a face never takes the flat colour of a backdrop of similar chroma. Undefined without people or visible skin.
 */
export function skinAnchors(work: Raster, scene: Scene | undefined, s: number): [number, number, number][] | undefined {
  if (!scene) return undefined;
  const c = skinColour(work, faceSkinAt(scene, work.width, work.height, s));
  return c && [c];
}

/**
 * The cel options of the inked styles (anime, comic): six chroma clusters weighed lightly by luminance, flat areas
 * smoothed and anti-aliased strips split at work scale s, the faces' skin a cluster of its own. The bands, the
 * smallest region (in pixels at s = 1) and the rest are each style's own.
 */
export function inkedCel(
  work: Raster,
  scene: Scene | undefined,
  s: number,
  own: Pick<CelOptions, 'bands' | 'minRegion'> & Partial<CelOptions>,
): CelOptions {
  const { minRegion, ...rest } = own;
  return {
    chromaK: 6,
    minRegion: Math.round(minRegion * s * s),
    lumaWeight: 0.12,
    smoothFlat: 12 * s,
    thinStrips: Math.max(1, Math.round(3 * s)),
    anchors: skinAnchors(work, scene, s),
    ...rest,
  };
}

/** The strokes of the faces' features at output size (width w), or undefined without people. */
export function featureInk(scene: Scene | undefined, w: number, weight: number): StrokeRows | undefined {
  return scene ? new StrokeRows(featureStrokes(scene, w, weight), w) : undefined;
}

/**
 * The ink layer the two printed styles (comic, pop art) share: the line field, thinned behind people with weak lines
 * on faces dropped; facial features as strokes; the halftone grid's inverse period; the work-to-output upsampler.
 * Line width and dot period are [minimum, per output scale] pairs, in output pixels.
 */
export function printInk(
  Lw: Float32Array,
  ww: number,
  wh: number,
  w: number,
  h: number,
  scene: Scene | undefined,
  person: Float32Array | undefined,
  s: number,
  o: { line: [number, number]; featureWeight: number; period: [number, number]; bgKeep?: number },
): { D: Float32Array; features: StrokeRows | undefined; inv: number; up: Upsampler } {
  const sc = scaleOf(w, h);
  const D = dogField(Lw, ww, wh, (Math.max(o.line[0], o.line[1] * sc) * ww) / w);
  if (scene && person) focusLines(D, ww, wh, person, scene, s, o.bgKeep);
  return {
    D,
    features: featureInk(scene, w, o.featureWeight),
    inv: 1 / Math.max(o.period[0], o.period[1] * sc),
    up: new Upsampler(ww, wh, w, h),
  };
}
