/**
 * Worker-thread entry of the analysis thread (see analysis-thread.ts): runs the neural analysis and posts it back.
 * The engine bundle ships it as analysis-worker.js; from source it runs through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeImage, loadModels } from './analysis';
import type { AnalysisRequest } from './analysis-thread';
import type { Analysis } from './analysis/types';
import type { WorkerReply } from './engine-worker';

const port = parentPort;
if (!port) throw new Error('analysis-worker must run in a worker thread');
port.on('message', (req: AnalysisRequest) => {
  analyzeImage({ data: req.data, width: req.width, height: req.height }).then(
    (value) => port.postMessage({ id: req.id, ok: true, value } satisfies WorkerReply<Analysis>),
    (err: unknown) => port.postMessage({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply<Analysis>),
  );
});
// a server starting up loads the models before the first photo arrives
const ready = (workerData as { warm?: boolean } | undefined)?.warm ? loadModels().then(() => undefined) : Promise.resolve();
ready.then(
  () => port.postMessage({ ready: true }),
  () => port.postMessage({ ready: true }), // the first request reports the failure
);
