/**
 * The engine's container, locally: engine/server.ts in its own worker thread, as SageMaker runs it in its own
 * container, bundled as the container ships it (engine/bundle.ts). Its renders (styles, face keeping, the quality gate) then never hold up the runtime's thread, where the
 * gateway, the functions and the other stand-ins answer. A container that dies is started again on the same port, as
 * SageMaker replaces a failed one; the endpoint (engine-endpoint.ts) meanwhile answers what SageMaker would.
 */
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { engineBundle } from '../engine/bundle';
import { spawnWorker } from '../engine/engine-worker';
import { LOCAL_HOST } from './serve';

export interface ContainerData {
  host: string;
  /** 0: any free port (the first start); a restart takes the same one again. */
  port: number;
  s3: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
}
export type ContainerMessage = { type: 'warm' } | { type: 'close' };
export type ContainerReply =
  | { type: 'listening'; url: string; port: number }
  | { type: 'failed'; error: string }
  | { type: 'warmed'; error?: string }
  | { type: 'closed' };

export interface EngineContainer {
  url: string;
  /** Style threads started and models loaded (the container's warm-up before /ping). */
  warm(): Promise<void>;
  /** Tests: the container dies, as a crashed one would (it is started again). */
  crash(): Promise<void>;
  /** Containers started after one died. */
  restarts(): number;
  close(): Promise<void>;
}

const ENTRY = path.join(__dirname, 'engine-container-worker');

type Options = { s3: ContainerData['s3']; log?: (msg: string) => void };

export async function startEngineContainer(opts: Options): Promise<EngineContainer> {
  const log = opts.log ?? (() => {});
  let closing = false;
  let worker: Worker;
  let boundPort: number | undefined;
  let restarts = 0;
  // Each waiter takes the first reply of its type; a container that exits answers every waiter with "failed".
  const waiters = new Set<{ want: ContainerReply['type']; resolve: (r: ContainerReply) => void }>();
  const next = (want: ContainerReply['type']) =>
    new Promise<ContainerReply>((resolve) => waiters.add({ want, resolve }));
  const answer = (r: ContainerReply, all = false) => {
    for (const w of [...waiters]) {
      if (!all && w.want !== r.type && !(w.want === 'listening' && r.type === 'failed')) continue;
      waiters.delete(w);
      w.resolve(r);
    }
  };

  // the engine as the container ships it (bundled), else its sources through tsx (same results, slower)
  const entry = (await engineBundle('local/engine-container-worker.ts', log)) ?? ENTRY;
  const start = async (port: number): Promise<{ url: string; port: number }> => {
    const w = spawnWorker(entry, { host: LOCAL_HOST, port, s3: opts.s3 } satisfies ContainerData);
    if (!w) throw new Error('No engine-container-worker module beside local/engine-container');
    worker = w;
    worker.on('message', (r: ContainerReply) => answer(r));
    worker.on('error', (err) => log(`Engine container failed: ${err.message}`));
    const listening = next('listening');
    worker.once('exit', (code) => {
      answer({ type: 'failed', error: `container exited (${code})` }, true);
      if (closing || boundPort === undefined) return;
      log(`Engine container stopped (exit ${code}); starting a new one`);
      restarts++;
      start(boundPort).catch((err: Error) => log(`Engine container could not restart: ${err.message}`));
    });
    const r = await listening;
    if (r.type !== 'listening') throw new Error(`Engine container did not start: ${'error' in r ? r.error : r.type}`);
    boundPort = r.port;
    return r;
  };
  const bound = await start(0);

  return {
    url: bound.url,
    async warm() {
      const warmed = next('warmed');
      worker.postMessage({ type: 'warm' } satisfies ContainerMessage);
      const r = await warmed;
      if (r.type !== 'warmed' || r.error) throw new Error(`Engine container: ${'error' in r ? r.error : r.type}`);
    },
    async crash() {
      await worker.terminate();
    },
    restarts: () => restarts,
    async close() {
      closing = true;
      const closed = next('closed');
      worker.postMessage({ type: 'close' } satisfies ContainerMessage);
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await worker.terminate();
    },
  };
}
