/** `npm start`: the whole product on http://localhost:3000 with local stand-ins for AWS, nothing to configure. */

import { buildFrontendIfStale } from '../frontend/build/when-stale';
import { runtimeOptionsFromEnv } from './env-options';
import { logUnhandledRejections, runEntryPoint } from './process-guard';
import { startLocalRuntime } from './runtime';

logUnhandledRejections();

// Lambda runs Node 22 (`engines`, .nvmrc); Node 20.19 still runs the local product, so say it rather than refuse.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.warn(
    `Node ${process.versions.node}: ToonZap targets Node 22 (Lambda's nodejs22.x); install it (nvm install) to match.`,
  );
}

runEntryPoint(async () => {
  const t0 = Date.now();
  buildFrontendIfStale();
  const runtime = await startLocalRuntime({ ...runtimeOptionsFromEnv(), port: Number(process.env.PORT ?? 3000) });
  console.log(`Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s. Press Ctrl+C to stop.`);
  return () => runtime.close();
});
