/** The word the faces part of an analysis gives the people part while the two run in two threads. */

/**
 * What the faces part tells the people part while both run (one Int32 on a SharedArrayBuffer, shared by the two
 * analysis threads). MoveNet's people serve a photo without a face (assembleAnalysis) and the second look at heads
 * without one (findHeadFaces), so MoveNet is skipped only where neither can matter: the whole view alone found the
 * faces (detect.ts WHOLE_ENOUGH: a portrait or a couple) and the mesh confirmed one. FACES_PENDING: not known yet;
 * FACE_FOUND: so; FACES_UNSURE: the tiles start, or the search ended without a face: MoveNet is needed. The first
 * word is final, so the analysis does not depend on which thread was faster.
 */
export type FaceSignal = Int32Array;
export const FACES_PENDING = 0;
export const FACE_FOUND = 1;
export const FACES_UNSURE = 2;

export function faceSignal(): FaceSignal {
  return new Int32Array(new SharedArrayBuffer(4));
}

/**
 * Whether the whole view alone settled the faces (FACE_FOUND): the heads are then not looked at again, even when
 * MoveNet ran because its wait timed out on a loaded machine, so the analysis is the same however the threads ran.
 */
export function facesSettled(signal: FaceSignal): boolean {
  return Atomics.load(signal, 0) === FACE_FOUND;
}

export function tell(signal: FaceSignal | undefined, what: typeof FACE_FOUND | typeof FACES_UNSURE): void {
  if (!signal) return;
  Atomics.compareExchange(signal, 0, FACES_PENDING, what);
  Atomics.notify(signal, 0);
}

/**
 * How long the people part waits, its mask done, for the faces part to say whether MoveNet is needed: the faces
 * part always says so (at its first face, before its tiles, at its end, on an error), so this bounds only a faces
 * thread lost mid-way. Waiting then costs nothing the analysis would not wait for anyway: it ends with the faces.
 */
export const FACES_WAIT_MS = 2000;
