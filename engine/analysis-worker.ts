/**
 * Worker-thread entry of the analysis threads (see analysis-thread.ts): finds one part of the analysis (the faces,
 * or the person mask, or face descriptors) and posts it back. The engine bundle ships it as analysis-worker.js; from source it runs
 * through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findFaces, findHeadFaces, findPerson, warmModels } from './analysis';
import { describeFaces } from './analysis/faceres';
import type { AnalysisRequest, AnalysisWorkerData } from './analysis-thread';
import type { WorkerReply } from './engine-worker';

const port = parentPort;
if (!port) throw new Error('analysis-worker must run in a worker thread');
function answer(req: AnalysisRequest): Promise<unknown> {
  if (req.part === 'describe') return describeFaces(req.crops);
  const img = { data: req.data, width: req.width, height: req.height };
  if (req.part === 'heads') return findHeadFaces(img, req.heads);
  if (req.part === 'faces') return findFaces(img, { signal: req.signal, thorough: req.thorough ?? false });
  // the people thread waits for the faces thread's word on MoveNet (never the other way round: no deadlock)
  return findPerson(img, req.signal && { signal: req.signal, wait: true });
}

port.on('message', (req: AnalysisRequest) => {
  answer(req).then(
    (value) => port.postMessage({ id: req.id, ok: true, value } satisfies WorkerReply<unknown>),
    (err: unknown) =>
      port.postMessage({
        id: req.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies WorkerReply<unknown>),
  );
});
// a server starting up loads the models and runs this thread's once before the first photo arrives
const data = workerData as AnalysisWorkerData | undefined;
const ready = data?.warm ? warmModels(data.parts) : Promise.resolve();
ready.then(
  () => port.postMessage({ ready: true }),
  () => port.postMessage({ ready: true }), // the first request reports the failure
);
