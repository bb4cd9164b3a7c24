import { type ConfigKey, configValueFromText, type EnvConfig } from '../../domain/config';
import { ENV, type TableName, tableEnvVar } from '../../domain/wiring';

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

export const settings = {
  table: (name: TableName) => required(tableEnvVar(name)),
  get mediaBucket() {
    return required(ENV.mediaBucket);
  },
  get brandName() {
    return setting('brandName');
  },
  get paymentMode() {
    return setting('paymentMode');
  },
  get stripePublishableKey() {
    return setting('stripePublishableKey');
  },
  get uploadUrlTtlSeconds() {
    return setting('uploadUrlTtlSeconds');
  },
  get imageUrlTtlSeconds() {
    return setting('imageUrlTtlSeconds');
  },
  get moderationMinConfidence() {
    return setting('moderationMinConfidence');
  },
  get engineEndpoint() {
    return required(ENV.engineEndpoint);
  },
  get jobsMachineArn() {
    return required(ENV.jobsMachineArn);
  },
  get orderMachineArn() {
    return required(ENV.orderMachineArn);
  },
  /** Public site origin for links in e-mails and Checkout redirects, without a trailing slash. */
  get siteUrl() {
    return required(ENV.siteUrl).replace(/\/+$/, '');
  },
  get mailFrom() {
    return required(ENV.mailFrom);
  },
  /** JSON of domain/generative.ts GenerativeStyles; lambdas/lib/renderer.ts parses and checks it. */
  get generativeStyles() {
    return process.env[ENV.generativeStyles] || '{}';
  },
  get bedrockRegion() {
    return required(ENV.bedrockRegion);
  },
  /** 0 is a valid budget (no generative previews at all). */
  get generativePreviewsPerDay() {
    return setting('generativePreviewsPerDay');
  },
  get bedrockRequestsPerMinute() {
    return setting('bedrockRequestsPerMinute');
  },
  get engineMaxConcurrency() {
    return setting('engineMaxConcurrency');
  },
  get orderDeadlineMinutes() {
    return setting('orderDeadlineMinutes');
  },
  /** The generative styles are drawn by the local runtime's engine stand-in, not a model (ENV.generativeStandIn). */
  get generativeStandIn() {
    return process.env[ENV.generativeStandIn] === 'true';
  },
  /** Where visitors write to (supportEmail, domain/config.ts). */
  get supportEmail() {
    return required(ENV.supportEmail);
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
