/**
 * The local runtime in a process of its own, for tests that stop it the hard way (a restart must lose nothing).
 * Usage: node --import tsx test/support/runtime-process.ts <dataDir> [paymentMode]
 * Prints one JSON line {url, stripeUrl, mailUrl, env} when ready; SIGTERM closes it, SIGKILL is a crash.
 */
import type { PaymentMode } from '../../domain/contract-shapes';
import { logUnhandledRejections } from '../../local/process-guard';
import { startLocalRuntime } from '../../local/runtime';

const [dataDir, paymentMode = 'simulated'] = process.argv.slice(2);
// As `npm start` does (local/start.ts).
logUnhandledRejections();
startLocalRuntime({ port: 0, dataDir, paymentMode: paymentMode as PaymentMode }).then(
  (runtime) => {
    process.stdout.write(
      `${JSON.stringify({ url: runtime.url, stripeUrl: runtime.stripeUrl, mailUrl: runtime.mailUrl, env: runtime.env })}\n`,
    );
    process.on('SIGTERM', () => void runtime.close().then(() => process.exit(0)));
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
