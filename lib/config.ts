/**
 * Typed per-environment configuration, chosen with `-c env=dev|prod`.
 * Everything an operator may want to change per environment lives here, nothing else reads context.
 */
import { PAYMENT_MODES, type PaymentMode } from '../domain/contract';
import {
  DEFAULT_BEDROCK_REGION,
  type GenerativeStyleSettings,
  type GenerativeStyles,
  generativePreset,
  validateGenerativeStyles,
} from '../domain/generative';
import { DEFAULT_SUPPORT_EMAIL, RETENTION_DAYS } from '../domain/privacy';
import { isStyleId, type StyleId } from '../domain/styles';

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
  /**
   * How long data is kept (days): S3 lifecycle rules and DynamoDB TTL. The same figures the privacy page states
   * (domain/privacy.ts), so they are not overridable per environment: change them there, for both.
   */
  readonly retention: typeof RETENTION_DAYS;
  /** Where visitors write to: shown on the site (footer, privacy, refund, terms) and the Reply-To of order e-mails. */
  readonly supportEmail: string;
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
  /**
   * Styles a Bedrock image model redraws (the rest stay on the engine), with their model, prompts, strength, sizes
   * and seed policy (domain/generative.ts). `-c generativeStyles=3d,anime` picks presets ("none" for none);
   * `-c generativeSettings='{"3d":{"controlStrength":0.8}}'` overrides fields per style.
   */
  readonly generativeStyles: GenerativeStyles;
  /** Region the Bedrock runtime is called in (the model must be offered there; see docs/bedrock.md). */
  readonly bedrockRegion: string;
  /** Regions an inference profile id (us./eu./apac./global. prefix) may route to: its foundation-model ARNs are granted there. */
  readonly bedrockProfileRegions: readonly string[];
  /**
   * The engine's SageMaker serverless endpoint: concurrent invocations it serves (MaxConcurrency, 1..200; beyond
   * it SageMaker answers ThrottlingException) and instances kept warm (ProvisionedConcurrency, 0 = none, at most
   * MaxConcurrency), so the first visitor after idle does not wait for a cold start. Both count against the
   * account's serverless concurrency quota in the region.
   */
  readonly engineMaxConcurrency: number;
  readonly engineProvisionedConcurrency: number;
  /** Free generative previews per UTC day (each is one paid model call); past it tiles show the static sample. */
  readonly generativePreviewsPerDay: number;
  /**
   * Requests per minute the app sends each generative model at most (lambdas/lib/capacity.ts admission control: paid
   * renders first). No AWS default to copy: AWS's Bedrock user guide ("Quotas for the bedrock-runtime endpoint") says
   * requests-per-minute quotas are no longer enforced there and throttling follows the per-model token quotas
   * (Service Quotas, Amazon Bedrock; new accounts may get less). 10 is a cautious pace for a new account; raise it to
   * what the account sustains without ThrottlingException (throttled calls still wait, they are only slower).
   */
  readonly bedrockRequestsPerMinute: number;
  /**
   * Minutes a paid order has to be delivered from its payment. Items waiting for capacity (a busy evening, a throttled
   * model, a misconfigured account) wait until then; only at the deadline is an undelivered item refunded.
   */
  readonly orderDeadlineMinutes: number;
}

/** Default generative styles: at least `3d` and `anime` in every deployed environment (and in `npm start`). */
const DEFAULT_GENERATIVE: StyleId[] = ['3d', 'anime'];
const presets = (ids: StyleId[], region: string): GenerativeStyles =>
  Object.fromEntries(ids.map((id) => [id, generativePreset(id, region)]));

const base: Omit<EnvConfig, 'envName'> = {
  brandName: 'ToonZap',
  paymentMode: 'stripe',
  stripePublishableKey: null,
  stripeSecretName: 'toonzap/stripe',
  uploadUrlTtlSeconds: 300,
  imageUrlTtlSeconds: 24 * 3600,
  retention: RETENTION_DAYS,
  supportEmail: DEFAULT_SUPPORT_EMAIL,
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
  generativeStyles: presets(DEFAULT_GENERATIVE, DEFAULT_BEDROCK_REGION),
  bedrockRegion: DEFAULT_BEDROCK_REGION,
  bedrockProfileRegions: ['us-east-1', 'us-east-2', 'us-west-2'],
  generativePreviewsPerDay: 200,
  engineMaxConcurrency: 10,
  engineProvisionedConcurrency: 0,
  bedrockRequestsPerMinute: 10,
  orderDeadlineMinutes: 120,
};

export const ENVIRONMENTS: Record<EnvConfig['envName'], EnvConfig> = {
  dev: { ...base, envName: 'dev', paymentMode: 'prelaunch', metricsNamespace: 'ToonZap/dev' },
  prod: {
    ...base,
    envName: 'prod',
    retainData: true,
    metricsNamespace: 'ToonZap/prod',
    generativePreviewsPerDay: 1000,
    engineProvisionedConcurrency: 1,
  },
};

/** Reads `env` plus optional overrides (e.g. `-c paymentMode=stripe -c stripePublishableKey=pk_live_...`). */
export function resolveConfig(getContext: (key: string) => unknown): EnvConfig {
  const envName = String(getContext('env') ?? 'dev');
  if (envName !== 'dev' && envName !== 'prod') {
    throw new Error(`Unknown environment "${envName}": use -c env=dev or -c env=prod`);
  }
  const cfg: EnvConfig = { ...ENVIRONMENTS[envName] };
  const overridable: (keyof EnvConfig)[] = [
    'brandName',
    'paymentMode',
    'stripePublishableKey',
    'stripeSecretName',
    'mailFrom',
    'siteUrl',
    'engineImageUri',
    'supportEmail',
    'alarmEmail',
    'metricsNamespace',
    'siteDomain',
    'siteCertificateArn',
    'bedrockRegion',
  ];
  const out = cfg as unknown as Record<string, unknown>;
  for (const key of overridable) {
    const value = getContext(key);
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  Object.assign(out, generativeOverrides(cfg, getContext));
  if (!PAYMENT_MODES.includes(cfg.paymentMode)) {
    throw new Error(`paymentMode must be stripe, simulated or prelaunch, not "${cfg.paymentMode}"`);
  }
  for (const key of ['rateLimitPer5Min', 'workRateLimitPer5Min'] as const) {
    const value = getContext(key);
    if (value === undefined || value === null || value === '') continue;
    const n = Number(value);
    // WAF accepts 10 to 2,000,000,000 requests per window.
    if (!Number.isInteger(n) || n < 10 || n > 2e9)
      throw new Error(`${key} must be a whole number from 10 to 2000000000, not "${String(value)}"`);
    out[key] = n;
  }
  for (const key of [
    'engineMaxConcurrency',
    'engineProvisionedConcurrency',
    'bedrockRequestsPerMinute',
    'orderDeadlineMinutes',
  ] as const) {
    const value = getContext(key);
    if (value !== undefined && value !== null && value !== '') out[key] = Number(value);
  }
  // SageMaker serverless: MaxConcurrency 1..200, ProvisionedConcurrency 1..MaxConcurrency when set.
  if (!Number.isInteger(cfg.engineMaxConcurrency) || cfg.engineMaxConcurrency < 1 || cfg.engineMaxConcurrency > 200)
    throw new Error(`engineMaxConcurrency must be a whole number from 1 to 200, not "${cfg.engineMaxConcurrency}"`);
  if (
    !Number.isInteger(cfg.engineProvisionedConcurrency) ||
    cfg.engineProvisionedConcurrency < 0 ||
    cfg.engineProvisionedConcurrency > cfg.engineMaxConcurrency
  )
    throw new Error(
      `engineProvisionedConcurrency must be a whole number from 0 to engineMaxConcurrency, not "${cfg.engineProvisionedConcurrency}"`,
    );
  if (!Number.isInteger(cfg.bedrockRequestsPerMinute) || cfg.bedrockRequestsPerMinute < 1)
    throw new Error(`bedrockRequestsPerMinute must be a whole number >= 1, not "${cfg.bedrockRequestsPerMinute}"`);
  // At least 15 minutes (a render and its retries), at most 12 h (Stripe refunds, the customer's patience).
  if (!Number.isInteger(cfg.orderDeadlineMinutes) || cfg.orderDeadlineMinutes < 15 || cfg.orderDeadlineMinutes > 720)
    throw new Error(`orderDeadlineMinutes must be a whole number from 15 to 720, not "${cfg.orderDeadlineMinutes}"`);
  if (!cfg.siteDomain !== !cfg.siteCertificateArn)
    throw new Error('siteDomain and siteCertificateArn go together: set both or neither');
  if (cfg.siteDomain && !cfg.siteUrl) out.siteUrl = `https://${cfg.siteDomain}`;
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(cfg.supportEmail)) {
    throw new Error(`supportEmail must be a plain e-mail address, not "${cfg.supportEmail}"`);
  }
  if (cfg.paymentMode === 'simulated') {
    throw new Error('paymentMode "simulated" exists only in the local runtime (npm start)');
  }
  return cfg;
}

/** `-c generativeStyles`, `-c generativeSettings`, `-c generativePreviewsPerDay`, `-c bedrockProfileRegions` on top of the environment. */
function generativeOverrides(cfg: EnvConfig, getContext: (key: string) => unknown): Partial<EnvConfig> {
  // The environments' styles are presets: their model follows the (possibly overridden) Bedrock region.
  let styles = presets(Object.keys(cfg.generativeStyles) as StyleId[], cfg.bedrockRegion) as Record<
    string,
    GenerativeStyleSettings
  >;
  const ids = getContext('generativeStyles');
  if (typeof ids === 'string' && ids !== '') {
    const list = ids === 'none' ? [] : ids.split(',').map((s) => s.trim());
    for (const id of list) if (!isStyleId(id)) throw new Error(`generativeStyles: unknown style "${id}"`);
    styles = presets(list as StyleId[], cfg.bedrockRegion) as Record<string, GenerativeStyleSettings>;
  }
  const settings = getContext('generativeSettings');
  if (settings !== undefined) {
    const parsed = (typeof settings === 'string' ? JSON.parse(settings) : settings) as Record<
      string,
      Partial<GenerativeStyleSettings>
    >;
    for (const [id, fields] of Object.entries(parsed)) {
      if (!styles[id])
        throw new Error(`generativeSettings: style "${id}" is not generative here (add it to generativeStyles)`);
      styles[id] = { ...styles[id], ...fields };
    }
  }
  const out: Partial<Record<keyof EnvConfig, unknown>> = {
    generativeStyles: validateGenerativeStyles(styles, isStyleId),
  };
  const perDay = getContext('generativePreviewsPerDay');
  if (perDay !== undefined) {
    const n = Number(perDay);
    if (!Number.isInteger(n) || n < 0) throw new Error('generativePreviewsPerDay must be a whole number >= 0');
    out.generativePreviewsPerDay = n;
  }
  const regions = getContext('bedrockProfileRegions');
  if (typeof regions === 'string' && regions !== '')
    out.bedrockProfileRegions = regions.split(',').map((r) => r.trim());
  return out as Partial<EnvConfig>;
}
