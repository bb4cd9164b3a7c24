/**
 * Worker thread of the local Bedrock stand-in: draws one image with the engine (renderStyle) off the runtime's main
 * thread, so the local API keeps answering while a "model" works, as it would with a remote model.
 */
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from '../../engine/engine-worker';
import { type Analysis, analyzePhoto, renderStyle } from '../../engine/index';

export interface RenderJob {
  id: number;
  image: Uint8Array;
  style: string;
  maxSize: number;
}

/** Analyses of the last few photos: a model is asked for a photo's previews and then its paid images. */
const analyses = new Map<string, Promise<Analysis>>();
const KEEP_ANALYSES = 8;

function analysisOf(image: Buffer): Promise<Analysis> {
  const key = createHash('sha256').update(image).digest('hex');
  let a = analyses.get(key);
  if (a)
    analyses.delete(key); // re-inserted below: most recently used last
  else a = analyzePhoto(image);
  analyses.set(key, a);
  a.catch(() => analyses.delete(key));
  if (analyses.size > KEEP_ANALYSES) analyses.delete(analyses.keys().next().value!);
  return a;
}

async function draw(job: RenderJob): Promise<Buffer> {
  const image = Buffer.from(job.image);
  const analysis = await analysisOf(image);
  return renderStyle(image, job.style, { maxSize: job.maxSize, analysis });
}

parentPort?.on('message', (job: RenderJob) => {
  draw(job).then(
    (value) => parentPort?.postMessage({ id: job.id, ok: true, value } satisfies WorkerReply<Uint8Array>),
    (err: Error) =>
      parentPort?.postMessage({ id: job.id, ok: false, error: err.message } satisfies WorkerReply<Uint8Array>),
  );
});
