/**
 * What the analysis knows about a photo (people and faces), as plain data: computed once per photo by
 * ./index.ts (neural models, main thread), cached as JSON beside the upload, and read by every style
 * (worker threads too, so this file loads neither tfjs nor sharp).
 *
 * Coordinates are pixels of the analysis image (`width` x `height`, the photo at ANALYSIS_LONG px); a style
 * rendering at another size scales them (`frameScale`).
 */

export type Point = [number, number];

export interface EyeInfo {
  /** Iris centre. */
  center: Point;
  /** Outer and inner eye corners. */
  corners: [Point, Point];
  /** Corner-to-corner distance. */
  width: number;
  /** Iris radius. */
  irisRadius: number;
  /** Lid opening / width (about 0.3 for an open eye, under 0.12 closed). */
  open: number;
}

export interface FaceInfo {
  /** Face-mesh confidence in 0..1. */
  score: number;
  /** Bounding box of the mesh: x, y, w, h. */
  box: [number, number, number, number];
  /** Eyes on the image's left and right side. */
  eyes: { left: EyeInfo; right: EyeInfo };
  /** The 468 MediaPipe face-mesh landmarks (x, y). */
  landmarks: Point[];
}

export interface PersonMask {
  width: number;
  height: number;
  /** Person probability 0..255 per pixel of the analysis image. */
  data: Uint8Array;
}

export interface Analysis {
  version: 1;
  width: number;
  height: number;
  faces: FaceInfo[];
  /** Share of the picture covered by the person mask (0 when no person was found). */
  coverage: number;
  /** Person/subject mask; null when no person was found (then every style renders as without analysis). */
  mask: PersonMask | null;
  /**
   * Whether small faces were looked for all over the photo (detect.ts: the tiles ran). A preview's analysis skips
   * them beside large faces; a paid render needs this one (server-io.ts `cachedAnalysis`). Absent: not known.
   */
  thorough?: boolean;
}

/**
 * Whether the analysis found people: a person mask, with or without faces (someone seen from behind has none).
 * An analysis that found nobody: styles render exactly as they do without one.
 */
export function hasPeople(a: Analysis | null | undefined): a is Analysis & { mask: PersonMask } {
  return !!a && a.mask !== null;
}

/**
 * Coordinates rounded to 1/100 px: what the analysis returns and what its JSON keeps, so a render from the cached
 * object is the same bytes as one from a fresh analysis.
 */
export function roundAnalysis(a: Analysis): Analysis {
  const round = (v: number) => Math.round(v * 100) / 100;
  const pt = (p: Point): Point => [round(p[0]), round(p[1])];
  const eye = (e: EyeInfo): EyeInfo => ({
    center: pt(e.center),
    corners: [pt(e.corners[0]), pt(e.corners[1])],
    width: round(e.width),
    irisRadius: round(e.irisRadius),
    open: round(e.open),
  });
  return {
    ...a,
    faces: a.faces.map((f) => ({
      score: round(f.score),
      box: f.box.map(round) as FaceInfo['box'],
      eyes: { left: eye(f.eyes.left), right: eye(f.eyes.right) },
      landmarks: f.landmarks.map(pt),
    })),
  };
}

/** JSON form (the cache object and `npm run engine:analyze`): the mask as base64. */
export function analysisToJson(a: Analysis): string {
  const r = roundAnalysis(a);
  return JSON.stringify({
    ...r,
    mask: r.mask && { width: r.mask.width, height: r.mask.height, data: Buffer.from(r.mask.data).toString('base64') },
  });
}

/** Parses the JSON form; throws on anything that is not one. */
export function analysisFromJson(text: string): Analysis {
  const o = JSON.parse(text) as Omit<Analysis, 'mask'> & { mask: (Omit<PersonMask, 'data'> & { data: string }) | null };
  if (o.version !== 1 || !Number.isInteger(o.width) || !Number.isInteger(o.height) || !Array.isArray(o.faces))
    throw new Error('not a photo analysis');
  let mask: PersonMask | null = null;
  if (o.mask) {
    const data = new Uint8Array(Buffer.from(o.mask.data, 'base64'));
    if (data.length !== o.mask.width * o.mask.height) throw new Error('analysis mask has the wrong size');
    mask = { width: o.mask.width, height: o.mask.height, data };
  }
  return { ...o, mask };
}
