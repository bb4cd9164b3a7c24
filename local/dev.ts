/**
 * `npm run dev`: the local runtime (API, emulators) on API_PORT (default 3001) and Vite's dev server with hot
 * reload on PORT (default 3000), proxying /api to the runtime.
 */
import { bedrockRpmFromEnv, mailPortFromEnv, startLocalRuntime } from './runtime';

async function main(): Promise<void> {
  const apiPort = Number(process.env.API_PORT ?? 3001);
  process.env.API_PORT = String(apiPort);
  const runtime = await startLocalRuntime({
    port: apiPort,
    dataDir: process.env.TOONZAP_DATA_DIR,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
    mailPort: mailPortFromEnv(),
    bedrockRequestsPerMinute: bedrockRpmFromEnv(),
    log: (m) => console.log(m),
  });
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: 'frontend/vite.config.ts',
    server: { port: Number(process.env.PORT ?? 3000), strictPort: true },
  });
  await vite.listen();
  vite.printUrls();
  console.log(`API and emulators on ${runtime.url}; mail viewer ${runtime.mailUrl}`);
  const stop = async () => {
    await vite.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
