/**
 * Worker-thread entry of the style pool: renders the styles it is sent and posts the pixels back.
 * The engine bundle ships it as style-worker.js; from source it runs through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { applyStyle } from './apply';
import type { WorkerReply } from './engine-worker';
import type { StyleJob } from './style-pool';
import { warmUpStyles } from './warm-up';

const port = parentPort;
if (!port) throw new Error('style-worker must run in a worker thread');
// when asked (a server starting up), get the style code optimised before the first real image arrives
if ((workerData as { warm?: boolean } | undefined)?.warm) warmUpStyles();
port.postMessage({ ready: true }); // the pool sends work only to ready workers
port.on('message', (job: StyleJob) => {
  let reply: WorkerReply<Uint8Array[]>;
  try {
    const img = { data: job.data, width: job.width, height: job.height };
    reply = { id: job.id, ok: true, value: job.styles.map((s) => applyStyle(img, s, job.analysis).data) };
  } catch (err) {
    reply = { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
