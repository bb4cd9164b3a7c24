/**
 * The local runtime in a process of its own, for tests that stop it the hard way (a restart must lose nothing).
 * Usage: node --import tsx test/support/runtime-process.ts <dataDir> [paymentMode]
 * Prints one JSON line {url, stripeUrl, mailUrl, env} when ready; SIGTERM closes it, SIGKILL is a crash.
 *
 * HOLD_RENDERS_VAR (a regular expression) holds the engine calls that write a matching output key: they reach a proxy
 * in front of the engine endpoint and are never answered, and each prints {"held": key} on stdout. A test then kills
 * the process at a known point of an order (some items done, the held ones not), whatever the machine's speed.
 */
import type { PaymentMode } from '../../domain/contract-shapes';
import { logUnhandledRejections } from '../../local/process-guard';
import { startLocalRuntime } from '../../local/runtime';
import { startFaultProxy } from './fault-proxy';
import { HOLD_RENDERS_VAR } from './runtime-child';

const [dataDir, paymentMode = 'simulated'] = process.argv.slice(2);
// As `npm start` does (local/start.ts).
logUnhandledRejections();

/** Puts the hold in front of the engine: the handlers' SageMaker client follows the variable (lambdas/lib/aws.ts). */
async function holdRenders(target: string, pattern: RegExp): Promise<string> {
  const held = new Set<string>();
  const proxy = await startFaultProxy(target, (_req, body) => {
    let keys: string[] = [];
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { outputs?: { key: string }[]; output?: { key: string } };
      keys = [...(parsed.outputs ?? []).map((o) => o.key), ...(parsed.output ? [parsed.output.key] : [])];
    } catch {
      // not JSON: pass it on
    }
    const hit = keys.find((k) => pattern.test(k));
    if (!hit) return false;
    if (!held.has(hit)) process.stdout.write(`${JSON.stringify({ held: hit })}\n`);
    held.add(hit);
    return true; // never answered
  });
  return proxy.url;
}

startLocalRuntime({ port: 0, dataDir, paymentMode: paymentMode as PaymentMode }).then(
  async (runtime) => {
    const hold = process.env[HOLD_RENDERS_VAR];
    if (hold) {
      const url = await holdRenders(runtime.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME, new RegExp(hold));
      process.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME = runtime.env.AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME = url;
    }
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
