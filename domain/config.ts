/**
 * The one configuration schema: every setting, its check and its default, written once. The CDK app
 * (lib/config.ts: per-environment values and `-c key=value` overrides) parses with it, and the handlers
 * (lambdas/lib/settings.ts: the values the stack hands them as environment variables) read their defaults and
 * checks from it. A new setting is one entry here; `EnvConfig` follows.
 */
import { z } from 'zod';
import { paymentMode } from './contract-shapes';
import {
  DEFAULT_BEDROCK_REGION,
  DEFAULT_GENERATIVE,
  type GenerativeStyles,
  generativePreset,
  UPSCALE_MODELS,
  upscaleModelOf,
} from './generative';
import { DEFAULT_ORDER_DEADLINE_MINUTES } from './orders';
import { DEFAULT_SUPPORT_EMAIL, RETENTION_DAYS } from './privacy';
import type { StyleId } from './styles';

/** Presets of these styles, their model called through the inference profile of the region's geography. */
export const generativePresets = (ids: readonly StyleId[], region: string): GenerativeStyles =>
  Object.fromEntries(ids.map((id) => [id, generativePreset(id, region)]));

const text = z.string().min(1);
const optionalText = z.string().min(1).nullable().default(null);
const seconds = z.number().int().positive();
// WAF accepts 10 to 2,000,000,000 requests per window.
const WAF_LIMIT = { message: 'must be a whole number from 10 to 2000000000' };
const ENGINE_CONCURRENCY = { message: 'must be a whole number from 1 to 200' };
const PROVISIONED = { message: 'must be a whole number from 0 to engineMaxConcurrency' };
const AT_LEAST_ONE = { message: 'must be a whole number >= 1' };
const DEADLINE = { message: 'must be a whole number from 15 to 720' };
/** docs/costs.md "Budget": the default caps' worst month plus the fixed costs, rounded up. */
export const DEFAULT_MONTHLY_BUDGET_USD = 600;
const wafLimit = z.number().int(WAF_LIMIT).min(10, WAF_LIMIT).max(2e9, WAF_LIMIT);
const WHOLE = { message: 'must be a whole number >= 0' };
/** A cap's limit per window: 0 = nothing of that kind for anonymous visitors. */
const capLimit = z.number().int(WHOLE).min(0, WHOLE);

export const configSchema = z
  .object({
    /** Environment name, part of every resource name. */
    envName: z.enum(['dev', 'prod']),
    brandName: text.default('ToonZap'),
    /**
     * 'stripe' needs the secret in Secrets Manager (see README); 'prelaunch' takes sign-ups instead of payments.
     * 'simulated' exists only in the local runtime (npm start), which sets it itself; the dev environment deploys
     * 'prelaunch' (lib/config.ts).
     */
    paymentMode: paymentMode.default('stripe'),
    stripePublishableKey: optionalText,
    /** Secrets Manager secret holding {"secretKey": "...", "webhookSecret": "..."} for payment mode 'stripe'. */
    stripeSecretName: text.default('toonzap/stripe'),
    /** Lifetime of presigned upload URLs. */
    uploadUrlTtlSeconds: seconds.default(300),
    /** Lifetime of links to generated images handed out by the API. */
    imageUrlTtlSeconds: seconds.default(24 * 3600),
    /**
     * How long data is kept (days): S3 lifecycle rules and DynamoDB TTL. The same figures the privacy page states
     * (domain/privacy.ts), so they are not overridable per environment: change them there, for both.
     */
    retention: z.custom<typeof RETENTION_DAYS>().default(RETENTION_DAYS),
    /** Where visitors write to: shown on the site (footer, privacy, refund, terms) and the Reply-To of order e-mails. */
    supportEmail: z
      .string()
      .regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, { message: 'must be a plain e-mail address' })
      .default(DEFAULT_SUPPORT_EMAIL),
    /** Rekognition moderation confidence threshold (percent). */
    moderationMinConfidence: z.number().positive().max(100).default(60),
    /** Sender of order e-mails; must be a verified SES identity in the account. */
    mailFrom: text.default('ToonZap <no-reply@toonzap.example>'),
    /** Public site URL used in e-mails when a custom domain fronts CloudFront; null = CloudFront domain. */
    siteUrl: optionalText,
    /** Existing container image (ECR URI) for the engine's model server; null builds engine/Dockerfile at deploy. */
    engineImageUri: optionalText,
    /** Keep data (tables, media bucket) when the stack is deleted. */
    retainData: z.boolean().default(false),
    /** Who hears about alarms: an e-mail subscription to the environment's alarm topic (confirm the first mail). null = topic only. */
    alarmEmail: optionalText,
    /**
     * AWS Budgets: the month's cost (the whole account's: deploy ToonZap in an account of its own) above which the alarm
     * topic hears of it, at 80 % actual and 100 % forecast. docs/costs.md derives the default: what a month of the
     * default caps and fixed costs can spend, so crossing it means something outside them is spending.
     */
    monthlyBudgetUsd: z
      .number()
      .positive({ message: 'must be a number of US dollars > 0' })
      .max(1_000_000, { message: 'must be a number of US dollars up to 1000000' })
      .default(DEFAULT_MONTHLY_BUDGET_USD),
    /** CloudWatch namespace of the app's own metrics (orders paid, refunds failed, ...); alarms and dashboard read it. */
    metricsNamespace: text.default('ToonZap'),
    /** WAF: requests per client IP in any 5 minutes, all routes (a tab polling every 2 s makes 150). */
    rateLimitPer5Min: wafLimit.default(2000),
    /** WAF: requests per client IP in any 5 minutes to the routes that start work (uploads, moderation, previews, checkout, sign-up, erasure). */
    workRateLimitPer5Min: wafLimit.default(100),
    /** Custom domain for the site, e.g. toonzap.example; needs siteCertificateArn. null = the CloudFront domain. */
    siteDomain: optionalText,
    /** ACM certificate for siteDomain, in us-east-1 (CloudFront's region). With it, viewers need TLS 1.2 or later. */
    siteCertificateArn: optionalText,
    /**
     * Styles a Bedrock image model redraws (the rest stay on the engine), with their model, prompts, strength, sizes
     * and seed policy (domain/generative.ts). `-c generativeStyles=3d,anime` picks presets ("none" for none);
     * `-c generativeSettings='{"3d":{"controlStrength":0.8}}'` overrides fields per style.
     */
    generativeStyles: z
      .custom<GenerativeStyles>()
      .default(() => generativePresets(DEFAULT_GENERATIVE, DEFAULT_BEDROCK_REGION)),
    /** Region the Bedrock runtime is called in (the model must be offered there; see docs/bedrock.md). */
    bedrockRegion: text.default(DEFAULT_BEDROCK_REGION),
    /** Regions an inference profile id (us./eu./apac./global. prefix) may route to: its foundation-model ARNs are granted there. */
    bedrockProfileRegions: z.array(text).readonly().default(['us-east-1', 'us-east-2', 'us-west-2']),
    /** Free generative previews per UTC day (each is one paid model call); past it tiles show the static sample. 0 = none. */
    generativePreviewsPerDay: capLimit.default(200),
    /*
     * Global caps (domain/wiring.ts CAPS, lambdas/lib/caps.ts) on what anonymous visitors can make the app pay for,
     * per UTC hour and per UTC day across all callers (per-IP limits are easy to dodge). Past one, previews keep their
     * static sample and moderation or upload registration answer 429 with Retry-After; paid orders are never counted
     * or refused. Sized for a shop whose free generative previews (2 per visitor) serve 100 to 500 visitors a day:
     * each visitor uploads and moderates a few photos (up to 50), and the style step previews one of them on the
     * engine. An hour may use a fifth to a quarter of its day: a burst (one host with many addresses) cannot spend
     * the day in minutes, and an evening's peak hour fits.
     */
    /** Free generative previews per UTC hour (a quarter of the dev day; prod sets a quarter of its 1,000). */
    generativePreviewsPerHour: capLimit.default(50),
    /** Engine preview renders (all engine styles of one photo, one engine call) per hour / per day: 6 per visitor-day of previews. */
    enginePreviewsPerHour: capLimit.default(600),
    enginePreviewsPerDay: capLimit.default(3000),
    /** Photos visitors send for moderation (one Rekognition image each) per hour / per day: 20 per visitor of the day's previews. */
    moderationImagesPerHour: capLimit.default(2000),
    moderationImagesPerDay: capLimit.default(10_000),
    /** Upload URLs handed out per hour / per day: as many as photos moderated (each upload is moderated once). */
    uploadsPerHour: capLimit.default(2000),
    uploadsPerDay: capLimit.default(10_000),
    /** Megabytes those upload URLs allow per hour / per day: 2 MB per upload on average (phone photos, under 10 MB). */
    uploadMegabytesPerHour: capLimit.default(4000),
    uploadMegabytesPerDay: capLimit.default(20_000),
    /**
     * The engine's SageMaker serverless endpoint: concurrent invocations it serves (MaxConcurrency, 1..200; beyond
     * it SageMaker answers ThrottlingException) and instances kept warm (ProvisionedConcurrency, 0 = none, at most
     * MaxConcurrency), so the first visitor after idle does not wait for a cold start. Both count against the
     * account's serverless concurrency quota in the region.
     */
    engineMaxConcurrency: z
      .number()
      .int(ENGINE_CONCURRENCY)
      .min(1, ENGINE_CONCURRENCY)
      .max(200, ENGINE_CONCURRENCY)
      .default(10),
    engineProvisionedConcurrency: z.number().int(PROVISIONED).min(0, PROVISIONED).default(0),
    /**
     * Requests per minute the app sends each generative model at most (lambdas/lib/capacity.ts admission control: paid
     * renders first). No AWS default to copy: AWS's Bedrock user guide ("Quotas for the bedrock-runtime endpoint") says
     * requests-per-minute quotas are no longer enforced there and throttling follows the per-model token quotas
     * (Service Quotas, Amazon Bedrock; new accounts may get less). 10 is a cautious pace for a new account; raise it to
     * what the account sustains without ThrottlingException (throttled calls still wait, they are only slower).
     */
    bedrockRequestsPerMinute: z.number().int(AT_LEAST_ONE).min(1, AT_LEAST_ONE).default(10),
    /**
     * Stability AI upscale service on Bedrock that enlarges paid generative images smaller than the paid size
     * (docs/bedrock.md "Upscaling"): a foundation model id or its `us.` inference profile, of Fast Upscale (suggested:
     * `us.stability.stable-fast-upscale-v1:0`, x4, the cheapest) or Conservative Upscale (keeps more detail, costs
     * more). null (default) = the engine's upscaler (lanczos3), no extra model call.
     */
    bedrockUpscaleModelId: z
      .string()
      .refine((id) => upscaleModelOf(id) !== null, {
        message: `must be one of ${Object.keys(UPSCALE_MODELS).join(', ')} or its inference profile (us.<id>)`,
      })
      .nullable()
      .default(null),
    /**
     * Minutes a paid order has to be delivered from its payment. Items waiting for capacity (a busy evening, a throttled
     * model, a misconfigured account) wait until then; only at the deadline is an undelivered item refunded. At least
     * 15 minutes (a render and its retries), at most 12 h (Stripe refunds, the customer's patience).
     */
    orderDeadlineMinutes: z
      .number()
      .int(DEADLINE)
      .min(15, DEADLINE)
      .max(720, DEADLINE)
      .default(DEFAULT_ORDER_DEADLINE_MINUTES),
  })
  .refine((c) => c.engineProvisionedConcurrency <= c.engineMaxConcurrency, {
    path: ['engineProvisionedConcurrency'],
    ...PROVISIONED,
  });

export type EnvConfig = Readonly<z.output<typeof configSchema>>;
export type ConfigKey = keyof EnvConfig;

/** Checks a whole configuration and fills in the defaults; throws naming every field that is wrong. */
export function parseConfig(input: Partial<Record<ConfigKey, unknown>>): EnvConfig {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  throw new Error(
    result.error.issues
      .map((i) => {
        const value = i.path.reduce<unknown>((o, k) => (o as Record<PropertyKey, unknown>)?.[k], input);
        return `${i.path.join('.')} ${i.message}, not ${JSON.stringify(value)}`;
      })
      .join('; '),
  );
}

/** The default of one setting (the value an environment gets when it says nothing). */
export function configDefault<K extends Exclude<ConfigKey, 'envName'>>(key: K): EnvConfig[K] {
  return configSchema.shape[key].parse(undefined) as EnvConfig[K];
}

/**
 * One setting from its text form (an environment variable or a `-c` context value): numbers and booleans are
 * read as such, empty means the default. Throws naming the setting when the text is not a valid value.
 */
export function configValueFromText<K extends Exclude<ConfigKey, 'envName'>>(
  key: K,
  raw: string | undefined,
): EnvConfig[K] {
  if (raw === undefined || raw === '') return configDefault(key);
  const field = configSchema.shape[key];
  const def = configDefault(key);
  const value = typeof def === 'number' ? Number(raw) : typeof def === 'boolean' ? raw === 'true' : raw;
  const result = field.safeParse(value);
  if (!result.success) throw new Error(`${key} ${result.error.issues[0]?.message}, not ${JSON.stringify(raw)}`);
  return result.data as EnvConfig[K];
}
