import { type ConfigKey, configValueFromText, type EnvConfig } from '../../domain/config';
import { CAP_SETTINGS, ENV, type TableName, tableEnvVar } from '../../domain/wiring';

/**
 * Handler settings, from the environment the stack sets on every function (lib/toonzap-stack.ts).
 * Read lazily so a missing variable fails the one call that needs it, with its name.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

/** A setting the stack passes on (lib/toonzap-stack.ts), read and checked by the one schema; unset = its default. */
function setting<K extends ConfigKey & keyof typeof ENV>(key: K): EnvConfig[K] {
  return configValueFromText(key, process.env[ENV[key]]);
}

/** Settings the stack always sets (a missing one is a deployment error, named by `required`). */
const REQUIRED = [
  'mediaBucket',
  'engineEndpoint',
  'jobsMachineArn',
  'orderMachineArn',
  'mailFrom',
  'bedrockRegion',
  // Where visitors write to (supportEmail, domain/config.ts).
  'supportEmail',
] as const satisfies readonly (keyof typeof ENV)[];

/** Settings with a default and a check in the one config schema (generativePreviewsPerDay 0 = no previews). */
const CONFIGURED = [
  'brandName',
  'paymentMode',
  'stripePublishableKey',
  'uploadUrlTtlSeconds',
  'imageUrlTtlSeconds',
  'moderationMinConfidence',
  // The global caps' limits (domain/wiring.ts CAPS), generativePreviewsPerDay among them.
  ...CAP_SETTINGS,
  'bedrockRequestsPerMinute',
  'engineMaxConcurrency',
  'bedrockUpscaleModelId',
  'orderDeadlineMinutes',
] as const satisfies readonly (ConfigKey & keyof typeof ENV)[];

type RequiredKey = (typeof REQUIRED)[number];
type ConfiguredKey = (typeof CONFIGURED)[number];

/** A getter per key, so each is read when asked for. */
function getters<K extends string>(keys: readonly K[], read: (key: K) => unknown): PropertyDescriptorMap {
  return Object.fromEntries(keys.map((key) => [key, { get: () => read(key), enumerable: true }]));
}

const derived = {
  table: (name: TableName) => required(tableEnvVar(name)),
  /** Public site origin for links in e-mails and Checkout redirects, without a trailing slash. */
  get siteUrl() {
    return required(ENV.siteUrl).replace(/\/+$/, '');
  },
  /** JSON of domain/generative.ts GenerativeStyles; lambdas/lib/renderer.ts parses and checks it. */
  get generativeStyles() {
    return process.env[ENV.generativeStyles] || '{}';
  },
  /** The generative styles are drawn by the local runtime's engine stand-in, not a model (ENV.generativeStandIn). */
  get generativeStandIn() {
    return process.env[ENV.generativeStandIn] === 'true';
  },
  /**
   * Every origin the site is served from (the custom domain, CloudFront's own; locally localhost and 127.0.0.1).
   * Checkout sends the visitor back to the one they came from, and never anywhere else.
   */
  get siteOrigins(): string[] {
    const list = (process.env[ENV.siteOrigins] ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean);
    return [...new Set([this.siteUrl, ...list])];
  },
};

export const settings = Object.defineProperties(derived, {
  ...getters(REQUIRED, (key) => required(ENV[key])),
  ...getters(CONFIGURED, setting),
}) as typeof derived & { readonly [K in RequiredKey]: string } & { readonly [K in ConfiguredKey]: EnvConfig[K] };
