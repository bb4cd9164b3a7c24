/** `npm start`: the whole product on http://localhost:3000 with local stand-ins for AWS, nothing to configure. */
import type { PaymentMode } from '../domain/contract';
import { buildFrontendIfStale } from './frontend-build';
import { logUnhandledRejections } from './process-guard';
import { bedrockRpmFromEnv, mailPortFromEnv, startLocalRuntime } from './runtime';

logUnhandledRejections();

async function main(): Promise<void> {
  const t0 = Date.now();
  buildFrontendIfStale();
  const runtime = await startLocalRuntime({
    port: Number(process.env.PORT ?? 3000),
    dataDir: process.env.TOONZAP_DATA_DIR,
    mailPort: mailPortFromEnv(),
    bedrockRequestsPerMinute: bedrockRpmFromEnv(),
    paymentMode: (process.env.PAYMENT_MODE as PaymentMode | undefined) ?? 'simulated',
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
    log: (msg) => console.log(msg),
    logLevel: process.env.POWERTOOLS_LOG_LEVEL,
  });
  console.log(`Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s. Press Ctrl+C to stop.`);
  const stop = async () => {
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
