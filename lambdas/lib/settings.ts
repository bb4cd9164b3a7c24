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
  table: (name: 'images' | 'jobs' | 'orders' | 'generations' | 'signups' | 'events') => required(`${name.toUpperCase()}_TABLE`),
  get mediaBucket() { return required('MEDIA_BUCKET'); },
  get brandName() { return process.env.BRAND_NAME || 'ToonZap'; },
  get paymentMode() { return (process.env.PAYMENT_MODE || 'prelaunch') as 'stripe' | 'simulated' | 'prelaunch'; },
  get stripePublishableKey() { return process.env.STRIPE_PUBLISHABLE_KEY || null; },
  get uploadUrlTtlSeconds() { return int('UPLOAD_URL_TTL_SECONDS', 300); },
  get imageUrlTtlSeconds() { return int('IMAGE_URL_TTL_SECONDS', 24 * 3600); },
  get moderationMinConfidence() { return int('MODERATION_MIN_CONFIDENCE', 60); },
  get engineEndpoint() { return required('ENGINE_ENDPOINT'); },
  get jobsMachineArn() { return required('JOBS_MACHINE_ARN'); },
  get orderMachineArn() { return required('ORDER_MACHINE_ARN'); },
  /** Public site origin for links in e-mails and Checkout redirects, without a trailing slash. */
  get siteUrl() { return required('SITE_URL').replace(/\/+$/, ''); },
  get mailFrom() { return required('MAIL_FROM'); },
};
