/**
 * The analysis runs in a thread of its own (engine/analysis-thread.ts): tfjs-wasm grows its memory, and the detach
 * that growing causes would slow every style rendered in the same thread for good. These tests check where it runs,
 * not how fast anything is.
 */
import { engine as tfEngine } from '@tensorflow/tfjs-core';
import {
  analysisToJson,
  analyzeImage,
  closeAnalysisThread,
  decodeInput,
  keepStyledFaces,
  renderStyle,
} from '../../engine';
import {
  analyzeImage as analyzeInThisThread,
  FACE_FOUND,
  FACES_UNSURE,
  faceSignal,
  findFaces,
  findPerson,
  warmModels,
} from '../../engine/analysis';
import { loadedModels } from '../../engine/analysis/models';
import { photo } from './helpers';

afterAll(() => closeAnalysisThread());

describe('the analysis thread', () => {
  it('analyses in its own thread: the calling thread never starts tfjs-wasm', async () => {
    const img = await decodeInput(photo('astronaut.png'), { maxSize: 256 });
    const a = await analyzeImage(img);
    expect(a.faces).toHaveLength(1);
    expect(a.mask).not.toBeNull();
    expect(Object.keys(tfEngine().registry)).not.toContain('wasm');
  });

  it('starts again after it was closed, and answers concurrent requests each with its own photo', async () => {
    await closeAnalysisThread();
    const [astronaut, chelsea] = await Promise.all([
      decodeInput(photo('astronaut.png'), { maxSize: 256 }).then(analyzeImage),
      decodeInput(photo('chelsea.png'), { maxSize: 256 }).then(analyzeImage),
    ]);
    expect(astronaut.faces).toHaveLength(1);
    expect(chelsea.faces).toHaveLength(0);
    expect(chelsea.mask).toBeNull(); // the mask found at the same time is dropped: no face, no person
    expect(Object.keys(tfEngine().registry)).not.toContain('wasm');
  });

  it('a paid render keeps its faces with FaceRes in the analysis thread, never in the calling thread', async () => {
    const img = await decodeInput(photo('astronaut.png'), { maxSize: 256 });
    const a = await analyzeImage(img);
    const lost = { ...img, data: Buffer.alloc(img.data.length, 128) }; // a flat grey render: the face is gone
    const kept = await keepStyledFaces(img, 'anime', lost, a);
    expect(kept.faces[0].step).toBeGreaterThan(0);
    expect(await renderStyle(photo('astronaut.png'), 'pop-art', { maxSize: 384 })).toBeInstanceOf(Buffer);
    expect(Object.keys(tfEngine().registry)).not.toContain('wasm');
  });

  // last: it starts tfjs-wasm in this thread
  it('finds the faces and the person mask in two threads, and the result is what one thread finds in turn', async () => {
    for (const name of ['astronaut.png', 'grace_hopper.jpg', 'chelsea.png']) {
      const img = await decodeInput(photo(name), { maxSize: 256 });
      expect(analysisToJson(await analyzeImage(img))).toBe(analysisToJson(await analyzeInThisThread(img)));
    }
  });

  it('runs MoveNet only for a photo without a face: the people part skips it once the faces part found one', async () => {
    const img = await decodeInput(photo('astronaut.png'), { maxSize: 256 });
    const all = await findPerson(img);
    const found = faceSignal();
    Atomics.store(found, 0, FACE_FOUND);
    const unsure = faceSignal();
    Atomics.store(unsure, 0, FACES_UNSURE);
    for (const skipped of [await findPerson(img, true), await findPerson(img, { signal: found, wait: true })]) {
      expect(skipped.persons).toEqual([]);
      expect(skipped.mask).toEqual(all.mask);
    }
    expect(all.persons.length).toBeGreaterThan(0); // MoveNet sees the astronaut when it runs ...
    expect((await findPerson(img, { signal: unsure, wait: true })).persons).toEqual(all.persons); // ... and it does
    // the faces part tells the people part as soon as it knows
    const told = faceSignal();
    expect(await findFaces(img, { signal: told, thorough: false })).toMatchObject({ thorough: false });
    expect(Atomics.load(told, 0)).toBe(FACE_FOUND);
    const none = faceSignal();
    const chelsea = await decodeInput(photo('chelsea.png'), { maxSize: 256 });
    // no face in the whole view: the tiles ran, so even a preview's search was thorough
    expect(await findFaces(chelsea, { signal: none, thorough: false })).toEqual({ faces: [], thorough: true });
    expect(Atomics.load(none, 0)).toBe(FACES_UNSURE);
  });

  it('warms up with inputs each model takes (a server runs this before /ping; a wrong shape would throw)', async () => {
    await expect(warmModels(['faces'])).resolves.toBeUndefined();
    // the faces thread also describes faces for face keeping and the gate: the first paid render does not load it
    expect(loadedModels()).toContain('faceres');
    await expect(warmModels(['person'])).resolves.toBeUndefined();
  });
});
