/**
 * Worker-thread entry of the local engine container (engine-container.ts): engine/server.ts, as the SageMaker
 * container runs it, with the local S3 for its bucket. Answers "warm" (the style threads and analysis models
 * loaded, as the container does before /ping answers) and "close".
 */
import { parentPort, workerData } from 'node:worker_threads';
import { S3Client } from '@aws-sdk/client-s3';
import { closeAnalysisThread, closeStylePool, warmAnalysisThread, warmStylePool } from '../engine';
import { startModelServer } from '../engine/server';
import type { ContainerData, ContainerMessage, ContainerReply } from './engine-container';

const port = parentPort;
if (!port) throw new Error('engine-container-worker must run in a worker thread');
const data = workerData as ContainerData;
const reply = (r: ContainerReply) => port.postMessage(r);
const failure = (err: unknown) => (err instanceof Error ? err.message : String(err));

const serving = startModelServer({
  port: data.port,
  host: data.host,
  s3: new S3Client({ ...data.s3, forcePathStyle: true }),
});
serving.then(
  (s) => reply({ type: 'listening', url: s.url, port: s.port }),
  (err) => reply({ type: 'failed', error: failure(err) }),
);

port.on('message', (m: ContainerMessage) => {
  if (m.type === 'warm') {
    Promise.all([warmStylePool(), warmAnalysisThread()]).then(
      () => reply({ type: 'warmed' }),
      (err) => reply({ type: 'warmed', error: failure(err) }),
    );
  } else if (m.type === 'close') {
    serving
      .then((s) => s.close())
      .catch(() => {})
      .then(() => Promise.allSettled([closeStylePool(), closeAnalysisThread()]))
      .then(() => reply({ type: 'closed' }));
  }
});
