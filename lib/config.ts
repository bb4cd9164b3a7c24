/**
 * Typed per-environment configuration, chosen with `-c env=dev|prod`.
 * Everything an operator may want to change per environment lives here, nothing else reads context.
 */
import { PAYMENT_MODES, type PaymentMode } from '../domain/contract';

export type { PaymentMode };

export interface EnvConfig {
  /** Environment name, part of every resource name. */
  readonly envName: 'dev' | 'prod';
  readonly brandName: string;
  /** 'stripe' needs the secret in Secrets Manager (see README); 'prelaunch' takes sign-ups instead of payments. */
  readonly paymentMode: PaymentMode;
  readonly stripePublishableKey: string | null;
  /** Secrets Manager secret holding {"secretKey": "...", "webhookSecret": "..."} for payment mode 'stripe'. */
  readonly stripeSecretName: string;
  /** Lifetime of presigned upload URLs. */
  readonly uploadUrlTtlSeconds: number;
  /** Lifetime of links to generated images handed out by the API. */
  readonly imageUrlTtlSeconds: number;
  /** Days before uploaded photos and generated images are deleted from the media bucket. */
  readonly mediaRetentionDays: number;
  /** Rekognition moderation confidence threshold (percent). */
  readonly moderationMinConfidence: number;
  /** Sender of order e-mails; must be a verified SES identity in the account. */
  readonly mailFrom: string;
  /** Public site URL used in e-mails when a custom domain fronts CloudFront; null = CloudFront domain. */
  readonly siteUrl: string | null;
  /** Existing container image (ECR URI) for the engine's model server; null builds engine/Dockerfile at deploy. */
  readonly engineImageUri: string | null;
  /** Keep data (tables, media bucket) when the stack is deleted. */
  readonly retainData: boolean;
  /** Who hears about alarms: an e-mail subscription to the environment's alarm topic (confirm the first mail). null = topic only. */
  readonly alarmEmail: string | null;
  /** CloudWatch namespace of the app's own metrics (orders paid, refunds failed, ...); alarms and dashboard read it. */
  readonly metricsNamespace: string;
  /** WAF: requests per client IP in any 5 minutes, all routes (a tab polling every 2 s makes 150). */
  readonly rateLimitPer5Min: number;
  /** WAF: requests per client IP in any 5 minutes to the routes that start work (moderation, previews, checkout, sign-up). */
  readonly workRateLimitPer5Min: number;
  /** Custom domain for the site, e.g. toonzap.example; needs siteCertificateArn. null = the CloudFront domain. */
  readonly siteDomain: string | null;
  /** ACM certificate for siteDomain, in us-east-1 (CloudFront's region). With it, viewers need TLS 1.2 or later. */
  readonly siteCertificateArn: string | null;
}

const base: Omit<EnvConfig, 'envName'> = {
  brandName: 'ToonZap',
  paymentMode: 'stripe',
  stripePublishableKey: null,
  stripeSecretName: 'toonzap/stripe',
  uploadUrlTtlSeconds: 300,
  imageUrlTtlSeconds: 24 * 3600,
  mediaRetentionDays: 30,
  moderationMinConfidence: 60,
  mailFrom: 'ToonZap <no-reply@toonzap.example>',
  siteUrl: null,
  engineImageUri: null,
  retainData: false,
  alarmEmail: null,
  metricsNamespace: 'ToonZap',
  rateLimitPer5Min: 2000,
  workRateLimitPer5Min: 100,
  siteDomain: null,
  siteCertificateArn: null,
};

export const ENVIRONMENTS: Record<EnvConfig['envName'], EnvConfig> = {
  dev: { ...base, envName: 'dev', paymentMode: 'prelaunch', metricsNamespace: 'ToonZap/dev' },
  prod: { ...base, envName: 'prod', retainData: true, metricsNamespace: 'ToonZap/prod' },
};

/** Reads `env` plus optional overrides (e.g. `-c paymentMode=stripe -c stripePublishableKey=pk_live_...`). */
export function resolveConfig(getContext: (key: string) => unknown): EnvConfig {
  const envName = String(getContext('env') ?? 'dev');
  if (envName !== 'dev' && envName !== 'prod') {
    throw new Error(`Unknown environment "${envName}": use -c env=dev or -c env=prod`);
  }
  const cfg: EnvConfig = { ...ENVIRONMENTS[envName] };
  const overridable: (keyof EnvConfig)[] = [
    'brandName', 'paymentMode', 'stripePublishableKey', 'stripeSecretName', 'mailFrom', 'siteUrl', 'engineImageUri',
    'alarmEmail', 'metricsNamespace', 'siteDomain', 'siteCertificateArn',
  ];
  const out = cfg as unknown as Record<string, unknown>;
  for (const key of overridable) {
    const value = getContext(key);
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  if (!PAYMENT_MODES.includes(cfg.paymentMode)) {
    throw new Error(`paymentMode must be stripe, simulated or prelaunch, not "${cfg.paymentMode}"`);
  }
  for (const key of ['rateLimitPer5Min', 'workRateLimitPer5Min'] as const) {
    const value = getContext(key);
    if (value === undefined || value === null || value === '') continue;
    const n = Number(value);
    // WAF accepts 10 to 2,000,000,000 requests per window.
    if (!Number.isInteger(n) || n < 10 || n > 2e9) throw new Error(`${key} must be a whole number from 10 to 2000000000, not "${String(value)}"`);
    out[key] = n;
  }
  if (!cfg.siteDomain !== !cfg.siteCertificateArn) throw new Error('siteDomain and siteCertificateArn go together: set both or neither');
  if (cfg.siteDomain && !cfg.siteUrl) out.siteUrl = `https://${cfg.siteDomain}`;
  if (cfg.paymentMode === 'simulated') {
    throw new Error('paymentMode "simulated" exists only in the local runtime (npm start)');
  }
  return cfg;
}
