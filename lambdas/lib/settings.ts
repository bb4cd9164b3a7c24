import type { PaymentMode } from '../../domain/contract';
import { DEFAULT_ORDER_DEADLINE_MINUTES } from '../../domain/orders';
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

const int = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export const settings = {
  table: (name: TableName) => required(tableEnvVar(name)),
  get mediaBucket() {
    return required(ENV.mediaBucket);
  },
  get brandName() {
    return process.env[ENV.brandName] || 'ToonZap';
  },
  get paymentMode() {
    return (process.env[ENV.paymentMode] || 'prelaunch') as PaymentMode;
  },
  get stripePublishableKey() {
    return process.env[ENV.stripePublishableKey] || null;
  },
  get uploadUrlTtlSeconds() {
    return int(ENV.uploadUrlTtlSeconds, 300);
  },
  get imageUrlTtlSeconds() {
    return int(ENV.imageUrlTtlSeconds, 24 * 3600);
  },
  get moderationMinConfidence() {
    return int(ENV.moderationMinConfidence, 60);
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
    const n = Number(process.env[ENV.generativePreviewsPerDay]);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  },
  get bedrockRequestsPerMinute() {
    return int(ENV.bedrockRequestsPerMinute, 10);
  },
  get engineMaxConcurrency() {
    return int(ENV.engineMaxConcurrency, 10);
  },
  get orderDeadlineMinutes() {
    return int(ENV.orderDeadlineMinutes, DEFAULT_ORDER_DEADLINE_MINUTES);
  },
  /** Where visitors write to (lib/config.ts supportEmail). */
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
