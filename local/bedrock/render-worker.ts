/**
 * Worker thread of the local Bedrock stand-in: draws one image with the engine (renderStyle) off the runtime's main
 * thread, so the local API keeps answering while a "model" works, as it would with a remote model.
 */
import { parentPort } from 'node:worker_threads';
import { renderStyle } from '../../engine/index';

export interface RenderJob {
  id: number;
  image: Uint8Array;
  style: string;
  maxSize: number;
}
export type RenderResult = { id: number; ok: true; png: Uint8Array } | { id: number; ok: false; error: string };

parentPort?.on('message', (job: RenderJob) => {
  renderStyle(Buffer.from(job.image), job.style, { maxSize: job.maxSize }).then(
    (png) => parentPort?.postMessage({ id: job.id, ok: true, png } satisfies RenderResult),
    (err: Error) => parentPort?.postMessage({ id: job.id, ok: false, error: err.message } satisfies RenderResult),
  );
});
