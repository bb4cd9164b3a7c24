/**
 * `npm run dev`: the local runtime (API, emulators) on API_PORT (default 3001) and Vite's dev server with hot
 * reload on PORT (default 3000), proxying /api to the runtime.
 */
import { runtimeOptionsFromEnv } from './env-options';
import { runEntryPoint } from './process-guard';
import { startLocalRuntime } from './runtime';

runEntryPoint(async () => {
  const apiPort = Number(process.env.API_PORT ?? 3001);
  process.env.API_PORT = String(apiPort);
  const runtime = await startLocalRuntime({ ...runtimeOptionsFromEnv(), port: apiPort });
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: 'frontend/vite.config.ts',
    server: { port: Number(process.env.PORT ?? 3000), strictPort: true },
  });
  await vite.listen();
  vite.printUrls();
  console.log(`API and emulators on ${runtime.url}; mail viewer ${runtime.mailUrl}`);
  return async () => {
    await vite.close();
    await runtime.close();
  };
});
