/** What the entry points (`npm start`, `npm run dev`) take from the environment for the local runtime. */
import type { PaymentMode } from '../domain/contract-shapes';
import type { LocalRuntimeOptions } from './runtime';

/** The whole number `name` holds in `env`, from `min` to `max`; undefined when unset or empty. */
function wholeFromEnv(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return n;
}

/** The mail viewer's port: TOONZAP_MAIL_PORT, else 3005 (tests pass 0). */
export const mailPortFromEnv = (env = process.env) => wholeFromEnv(env, 'TOONZAP_MAIL_PORT', 0, 65535) ?? 3005;

/** The local Bedrock's requests-per-minute quota per model: TOONZAP_BEDROCK_RPM, else none. */
export const bedrockRpmFromEnv = (env = process.env) => wholeFromEnv(env, 'TOONZAP_BEDROCK_RPM', 1, 1e9);

/** The runtime's options both entry points take from the environment (the port is each one's own). */
export function runtimeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return {
    dataDir: env.TOONZAP_DATA_DIR,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    mailPort: mailPortFromEnv(env),
    host: env.HOST || undefined,
    paymentMode: (env.PAYMENT_MODE as PaymentMode | undefined) ?? 'simulated',
    logLevel: env.POWERTOOLS_LOG_LEVEL,
    bedrockRequestsPerMinute: bedrockRpmFromEnv(env),
    warm: true,
    log: (msg: string) => console.log(msg),
  } satisfies LocalRuntimeOptions;
}
