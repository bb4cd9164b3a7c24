/**
 * Worker thread of the local Bedrock stand-in: draws one image with the engine (renderStyle) off the runtime's main
 * thread, so the local API keeps answering while a "model" works, as it would with a remote model.
 */
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import type { WorkerReply } from '../../engine/engine-worker';
import { type Analysis, analyzePhoto, renderStyle } from '../../engine/index';

export interface RenderJob {
  id: number;
  image: Uint8Array;
  style: string;
  maxSize: number;
  /** Tests: every face of the photo painted over with its box's mean colour (a model that lost the faces). */
  eraseFaces?: boolean;
}

/** `png` with each face box of `analysis` (scaled to its width) filled with that box's mean colour. */
async function eraseFaces(png: Buffer, analysis: Analysis): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const k = width / analysis.width;
  const patches = await Promise.all(
    analysis.faces.map(async (f) => {
      const left = Math.max(0, Math.round(f.box[0] * k));
      const top = Math.max(0, Math.round(f.box[1] * k));
      const w = Math.min(width - left, Math.round(f.box[2] * k));
      const h = Math.min(height - top, Math.round(f.box[3] * k));
      const stats = await sharp(png)
        .extract({ left, top, width: w, height: h })
        .removeAlpha()
        .toColourspace('srgb')
        .stats();
      const [r, g, b] = stats.channels.map((c) => Math.round(c.mean));
      const background = { r, g: g ?? r, b: b ?? r };
      return { input: { create: { width: w, height: h, channels: 3 as const, background } }, left, top };
    }),
  );
  return sharp(png).composite(patches).png().toBuffer();
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
  const png = await renderStyle(image, job.style, { maxSize: job.maxSize, analysis });
  return job.eraseFaces ? eraseFaces(png, analysis) : png;
}

parentPort?.on('message', (job: RenderJob) => {
  draw(job).then(
    (value) => parentPort?.postMessage({ id: job.id, ok: true, value } satisfies WorkerReply<Uint8Array>),
    (err: Error) =>
      parentPort?.postMessage({ id: job.id, ok: false, error: err.message } satisfies WorkerReply<Uint8Array>),
  );
});
