/**
 * Names the stack (lib/) and the handlers (lambdas/) must agree on, defined once: the environment variables the
 * stack sets on every function, the tables, the media bucket's key layout and the engine's error names.
 * Pure data, no AWS: lib/ imports it to build resources and grants, lambdas/ to read settings and keys.
 */

/** Tables as the handlers know them, with their partition keys. */
export const TABLES = {
  images: 'image_hash',
  jobs: 'job_id',
  orders: 'order_id',
  generations: 'generation_id',
  signups: 'signup_id',
  events: 'event_id',
  /**
   * Atomic counters with a window key: the global caps (CAPS: `generative-previews#2026-11-23`, per hour
   * `...#2026-11-23T14`) and the models' minutes. Their own table rather than an item in another: only the functions
   * that spend a budget may write it; TTL clears old windows.
   */
  counters: 'counter_id',
  /**
   * Who holds a photo (`<image hash>#<holder>`): `owner#<owner id>` for a browser that proved it has the bytes (or
   * is proving it), `order#<order id>` for an order placed on it. Every access to a photo checks its owner's row;
   * erasure asks the `by-image` index who else still holds it instead of scanning orders.
   */
  holds: 'hold_id',
  /** Share links (`/image/{share_id}[/{style}]`): one unguessable id per (order, photo), pointing at both. */
  shares: 'share_id',
  /**
   * Erasures an address asked for: `token#<SHA-256 of the link's token>` (the address, until confirmed or expired)
   * and `address#<address>` (when its last link was sent, so one address is not sent a link a minute).
   */
  erasures: 'erasure_id',
} as const;
export type TableName = keyof typeof TABLES;

/** Global secondary indexes, by table: each one's name and partition key (projecting all attributes). */
export const TABLE_INDEXES: Partial<Record<TableName, { readonly name: string; readonly key: string }>> = {
  holds: { name: 'by-image', key: 'image_hash' },
  /** Everything tied to an address, for the erasure it confirms (the normalised address, domain/email.ts emailKey). */
  orders: { name: 'by-email', key: 'email_key' },
  signups: { name: 'by-email', key: 'email' },
};

/** Environment variable that holds a table's physical name. */
export const tableEnvVar = (name: TableName) => `${name.toUpperCase()}_TABLE`;

/** Environment variables the stack sets on functions (besides the tables'). */
export const ENV = {
  mediaBucket: 'MEDIA_BUCKET',
  brandName: 'BRAND_NAME',
  paymentMode: 'PAYMENT_MODE',
  stripePublishableKey: 'STRIPE_PUBLISHABLE_KEY',
  stripeSecretName: 'STRIPE_SECRET_NAME',
  uploadUrlTtlSeconds: 'UPLOAD_URL_TTL_SECONDS',
  imageUrlTtlSeconds: 'IMAGE_URL_TTL_SECONDS',
  moderationMinConfidence: 'MODERATION_MIN_CONFIDENCE',
  engineEndpoint: 'ENGINE_ENDPOINT',
  mailFrom: 'MAIL_FROM',
  siteUrl: 'SITE_URL',
  /** Every origin the site is served from, comma-separated (Checkout returns the visitor to theirs). */
  siteOrigins: 'SITE_ORIGINS',
  supportEmail: 'SUPPORT_EMAIL',
  /** Route functions only: task functions must not know the machines that run them (a dependency cycle). */
  jobsMachineArn: 'JOBS_MACHINE_ARN',
  orderMachineArn: 'ORDER_MACHINE_ARN',
  /**
   * Route functions only: the Secrets Manager secret whose AWSCURRENT or AWSPREVIOUS value CloudFront sends in its
   * origin header (domain/security-headers.ts, lambdas/lib/http.ts); unset = no check.
   */
  originSecretArn: 'ORIGIN_SECRET_ARN',
  /** The origin secret's rotation function only: the distribution whose API origin header it sets. */
  distributionId: 'DISTRIBUTION_ID',
  /** The origin secret's value itself, where there is no Secrets Manager (the local runtime); never set by the stack. */
  originVerifySecret: 'ORIGIN_VERIFY_SECRET',
  /** JSON of the generative styles (domain/generative.ts); styles absent from it are drawn by the engine. */
  generativeStyles: 'GENERATIVE_STYLES',
  bedrockRegion: 'BEDROCK_REGION',
  generativePreviewsPerDay: 'GENERATIVE_PREVIEWS_PER_DAY',
  /** Global caps on anonymous use of paid services (CAPS below; domain/config.ts). */
  generativePreviewsPerHour: 'GENERATIVE_PREVIEWS_PER_HOUR',
  enginePreviewsPerHour: 'ENGINE_PREVIEWS_PER_HOUR',
  enginePreviewsPerDay: 'ENGINE_PREVIEWS_PER_DAY',
  moderationImagesPerHour: 'MODERATION_IMAGES_PER_HOUR',
  moderationImagesPerDay: 'MODERATION_IMAGES_PER_DAY',
  uploadsPerHour: 'UPLOADS_PER_HOUR',
  uploadsPerDay: 'UPLOADS_PER_DAY',
  uploadMegabytesPerHour: 'UPLOAD_MEGABYTES_PER_HOUR',
  uploadMegabytesPerDay: 'UPLOAD_MEGABYTES_PER_DAY',
  /** Admission control (lambdas/lib/capacity.ts): requests per minute per Bedrock model, engine concurrency. */
  bedrockRequestsPerMinute: 'BEDROCK_REQUESTS_PER_MINUTE',
  engineMaxConcurrency: 'ENGINE_MAX_CONCURRENCY',
  /** Bedrock upscale service for paid generative images (domain/config.ts); empty = the engine's upscaler. */
  bedrockUpscaleModelId: 'BEDROCK_UPSCALE_MODEL_ID',
  /** Minutes a paid order has from its payment (domain/orders.ts orderTimeline). */
  orderDeadlineMinutes: 'ORDER_DEADLINE_MINUTES',
  /**
   * 'true' only in the local runtime when its Bedrock stand-in draws the generative styles with the engine: the
   * browser then labels those images as the stand-in's approximation (GET /api/config). The stack never sets it.
   */
  generativeStandIn: 'GENERATIVE_STAND_IN',
} as const;

/**
 * Global caps on the paid-for services anonymous visitors can reach, counted per UTC hour and per UTC day across all
 * callers in the counters table (lambdas/lib/caps.ts): each names its counter, the settings holding its limits
 * (domain/config.ts; `unit` units of the count per unit of the setting) and what one unit is. Paid orders' own
 * moderation, previews and renders are never counted against them.
 */
export const CAPS = {
  /** Photos sent for moderation by visitors (each one Rekognition image). */
  moderation: { counter: 'moderation-images', perHour: 'moderationImagesPerHour', perDay: 'moderationImagesPerDay' },
  /** Engine preview renders (one engine call: every engine style of one photo). */
  enginePreviews: { counter: 'engine-previews', perHour: 'enginePreviewsPerHour', perDay: 'enginePreviewsPerDay' },
  /** Free generative previews (one model call each). */
  generativePreviews: {
    counter: 'generative-previews',
    perHour: 'generativePreviewsPerHour',
    perDay: 'generativePreviewsPerDay',
  },
  /** Upload registrations that hand out an upload URL. */
  uploads: { counter: 'uploads', perHour: 'uploadsPerHour', perDay: 'uploadsPerDay' },
  /** Bytes those upload URLs allow (the settings are in megabytes). */
  uploadBytes: {
    counter: 'upload-bytes',
    perHour: 'uploadMegabytesPerHour',
    perDay: 'uploadMegabytesPerDay',
    unit: 1_000_000,
  },
} as const;
export type CapName = keyof typeof CAPS;
/** The two fixed windows every cap is counted in (UTC). */
export const CAP_WINDOWS = ['hour', 'day'] as const;
export type CapWindow = (typeof CAP_WINDOWS)[number];
/** Every setting that holds a cap's limit. */
export const CAP_SETTINGS = Object.values(CAPS).flatMap((c) => [c.perHour, c.perDay]);
export type CapSetting = (typeof CAP_SETTINGS)[number];

/** Template metadata key that names a function's source module; the local runtime maps functions back to code with it. */
export const ENTRY_METADATA_KEY = 'toonzap:entry';

/** The media bucket's folders. */
const MEDIA_FOLDERS = ['uploads', 'previews', 'outputs', 'analysis', 'shares'] as const;
type MediaFolder = (typeof MEDIA_FOLDERS)[number];

/**
 * Media bucket key prefixes, each folder's name and a slash; lifecycle rules, IAM grants and handlers agree on them
 * through this one list.
 */
export const MEDIA_PREFIX = Object.fromEntries(MEDIA_FOLDERS.map((f) => [f, `${f}/`])) as {
  readonly [F in MediaFolder]: `${F}/`;
};

/** Where things live in the media bucket. */
export const mediaKey = {
  upload: (hash: string) => `${MEDIA_PREFIX.uploads}${hash}`,
  /**
   * One registration's own upload: a browser proves it has a photo's bytes by uploading them here (S3 checks the
   * signed SHA-256); the first proof of a photo becomes its stored copy (`upload`), the others are deleted.
   */
  proof: (registrationId: string) => `${MEDIA_PREFIX.uploads}proofs/${registrationId}`,
  preview: (hash: string, style: string) => `${MEDIA_PREFIX.previews}${hash}/${style}.png`,
  /** A paid image belongs to its order: two orders of one photo never share a file. */
  output: (orderId: string, hash: string, style: string) => `${MEDIA_PREFIX.outputs}${orderId}/${hash}/${style}.png`,
  /** Every paid image of one order. */
  orderOutputs: (orderId: string) => `${MEDIA_PREFIX.outputs}${orderId}/`,
  /** The share-sized JPEG social networks show for a share link (made when the image is delivered). */
  shareCard: (shareId: string, style: string) => `${MEDIA_PREFIX.shares}${shareId}/${style}.jpg`,
  shareCards: (shareId: string) => `${MEDIA_PREFIX.shares}${shareId}/`,
  /** The engine's analysis of a photo (people, faces), keyed by the SHA-256 of its bytes; written by the engine. */
  analysis: (sha256: string) => `${MEDIA_PREFIX.analysis}${sha256}.json`,
};

/**
 * Errors the engine client throws for conditions that may pass, by name, so the order pipeline's Retry can match
 * them: throttled, the model failed on this call, the endpoint could not be reached.
 */
export const ENGINE_ERRORS = {
  throttled: 'EngineThrottled',
  modelError: 'EngineModelError',
  unavailable: 'EngineUnavailable',
} as const;
export type EngineErrorName = (typeof ENGINE_ERRORS)[keyof typeof ENGINE_ERRORS];
/** Retried soon (a few quick attempts): the model or the network failed on this call. */
export const ENGINE_RETRYABLE: readonly EngineErrorName[] = [ENGINE_ERRORS.modelError, ENGINE_ERRORS.unavailable];

/**
 * Errors of generative renders (lambdas/lib/bedrock.ts), by name for the order pipeline: throttled and unavailable
 * pass with time (retried with backoff); refused (content filtered, input refused for this photo) and
 * rendererChanged never do, so the item fails at once and is refunded. misconfigured is the operator's problem
 * (access denied, not subscribed, on-demand call of a profile-only model, model not found or not ready): it never
 * says anything about the photo, is alarmed at once (METRICS.modelMisconfigured) and waited out like throttling
 * (WAIT_FOR_CAPACITY), so the item is delivered once the configuration is fixed, or refunded at the deadline.
 */
export const GENERATIVE_ERRORS = {
  throttled: 'GenerativeThrottled',
  unavailable: 'GenerativeUnavailable',
  refused: 'GenerativeRefused',
  rendererChanged: 'RendererChanged',
  misconfigured: 'GenerativeMisconfigured',
  /** The quality gate failed a paid image and tries are left: asked again with a new seed (its own Retry). */
  qualityRetry: 'GenerativeQualityRetry',
} as const;
export type GenerativeErrorName = (typeof GENERATIVE_ERRORS)[keyof typeof GENERATIVE_ERRORS];
/**
 * Tries of a paid generative image the quality gate (engine/quality-gate.ts) fails: the first and at most 2 more,
 * each a new invocation of generate-item (one model call each, inside the task's timeout) with a new seed.
 */
export const GENERATIVE_TRIES = 3;
/** Retried soon with backoff: these pass in seconds. */
export const GENERATIVE_RETRYABLE: readonly GenerativeErrorName[] = [GENERATIVE_ERRORS.unavailable];

/** A paid item found no capacity (lambdas/lib/capacity.ts admission control): it waits and tries again. */
export const CAPACITY_BUSY = 'CapacityBusy';
/**
 * Conditions a paid item waits out until its order's deadline (retried with full jitter, lib/order-pipeline.ts
 * WAIT_RETRY): no capacity, a renderer throttled, a misconfigured model (which the operator fixes when alarmed).
 * At the deadline generate-item fails the item, and it is refunded.
 */
export const WAIT_FOR_CAPACITY: readonly string[] = [
  CAPACITY_BUSY,
  ENGINE_ERRORS.throttled,
  GENERATIVE_ERRORS.throttled,
  GENERATIVE_ERRORS.misconfigured,
];

/** Powertools service name: the `service` dimension of every metric and field of every log line. */
export const SERVICE_NAME = 'toonzap';

/**
 * The app's own CloudWatch metrics (namespace from the stack's config, dimension service=SERVICE_NAME). Handlers emit
 * them through lambdas/lib/observability.ts; lib/monitoring.ts alarms on them and draws them on the dashboard.
 */
export const METRICS = {
  ordersPaid: 'OrdersPaid',
  /** Disputes (chargebacks) Stripe reported: each one alarms, since it has to be answered in Stripe within days. */
  paymentsDisputed: 'PaymentsDisputed',
  imagesDelivered: 'ImagesDelivered',
  itemsRefunded: 'ItemsRefunded',
  /** A refund Stripe did not make: the customer is still charged. Critical. */
  refundFailures: 'RefundFailures',
  moderationRefusals: 'ModerationRefusals',
  previewsMade: 'PreviewsMade',
  /** Milliseconds per engine call (SageMaker endpoint), and calls that failed. */
  engineLatency: 'EngineLatency',
  engineErrors: 'EngineErrors',
  /** Milliseconds per moderation model call (Rekognition). */
  moderationLatency: 'ModerationLatency',
  /** Generative model calls (Bedrock): latency and errors. */
  modelLatency: 'ModelLatency',
  modelErrors: 'ModelErrors',
  /** Generative model calls refused for the account's configuration (access, subscription, model id): alarmed at once. */
  modelMisconfigured: 'ModelMisconfigured',
  /** Paid images the Bedrock upscale service could not enlarge (misconfigured, refused, unavailable): lanczos3 did. */
  upscaleFallbacks: 'UpscaleFallbacks',
  /** Paid images checked by the quality gate (engine/quality-gate.ts), and those it failed: alarmed on the rate. */
  qualityChecks: 'QualityChecks',
  qualityFailures: 'QualityFailures',
  /** API answers of 500 or more, with dimension `route` (the route key, e.g. `POST /api/stripe-webhook`). */
  serverErrors: 'ServerErrors',
  /** Units of a global cap used (CAPS), and requests a cap refused; both with dimension `cap` (the CAPS key). */
  capUse: 'CapUse',
  capRefusals: 'CapRefusals',
  /** Orders or jobs the reconciler had to repair (each one is a failure something else missed). */
  reconcilerRepairs: 'ReconcilerRepairs',
} as const;
export type MetricName = (typeof METRICS)[keyof typeof METRICS];
