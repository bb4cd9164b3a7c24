/**
 * The API contract: every route's request and response, defined once with zod. Handlers parse requests with these
 * schemas (the first failed check's message becomes the 400's `detail`, so messages here are user-facing, and the
 * spec's texts where it names one); the frontend takes its types from them (type-only imports: no bytes shipped).
 * Keyed by handler name, the same key domain/api-routes.ts uses; a test keeps the two lists equal.
 */
import { z } from 'zod';
import {
  deliveredImage,
  email,
  generationStatus,
  hashList,
  imageHash,
  jobStatus,
  moderationState,
  paymentMode,
  serverId,
  styleId,
} from './contract-shapes';
import { JOB_WAIT_MS } from './job-polling';
import { ITEM_STATES } from './orders';
import { ACCEPTED_TYPES, MAX_FILE_BYTES, MESSAGES as UPLOAD_MESSAGES } from './upload-rules';

// ---------------------------------------------------------------------------------------------------------------
// Routes

export const contract = {
  status: {
    response: z.object({ status: z.literal('ok'), time: z.string() }),
  },
  config: {
    /**
     * `supportEmail`: where visitors write to (footer, legal pages). `generativeStandIn`: the styles marked
     * aiGenerated are drawn by the local runtime's engine stand-in, not the model (only `npm start` sets it).
     */
    response: z.object({
      brand: z.string(),
      paymentMode,
      publishableKey: z.string().nullable(),
      supportEmail: z.string(),
      generativeStandIn: z.boolean(),
    }),
  },
  'available-styles': {
    response: z.object({
      /** aiGenerated: a generative AI model draws the style in this deployment (lambdas/lib/renderer.ts). */
      styles: z.array(
        z.object({
          id: styleId,
          name: z.string(),
          description: z.string(),
          preview: z.string(),
          aiGenerated: z.boolean(),
        }),
      ),
    }),
  },
  'upload-image': {
    request: z.object({
      image_hash: imageHash('image_hash'),
      file_type: z.enum(ACCEPTED_TYPES, { error: UPLOAD_MESSAGES.type }),
      /** Bytes of the file: the upload URL signs exactly this length; at the limit or over, no URL is made. */
      file_size: z
        .number({ error: 'file_size must be the file size in bytes.' })
        .int('file_size must be the file size in bytes.')
        .positive('file_size must be the file size in bytes.')
        .refine((size) => size < MAX_FILE_BYTES, UPLOAD_MESSAGES.size),
    }),
    response: z.discriminatedUnion('status', [
      z.object({ status: z.literal('exists') }),
      z.object({ status: z.literal('upload'), url: z.object({ url: z.string() }) }),
    ]),
  },
  'process-moderation': {
    request: z.object({ image_hashes: hashList('image_hashes') }),
    response: z.object({ job_id: serverId }),
  },
  'process-thumbnail': {
    request: z.object({ image_hash: imageHash('image_hash') }),
    response: z.object({ job_id: serverId }),
  },
  'get-job': {
    params: z.object({ job_id: z.string() }),
    /** `wait=1`: an unfinished job's answer is held until the job ends or JOB_WAIT_MS passes (domain/job-polling.ts). */
    query: z.object({
      wait: z
        .enum(['0', '1'], {
          error: `wait must be 1 (answer when the job ends, within ${JOB_WAIT_MS / 1000} s) or 0 (answer now).`,
        })
        .optional(),
    }),
    /** The status value itself, as a JSON string. */
    response: jobStatus,
  },
  'get-moderation': {
    params: z.object({ image_hash: imageHash('image_hash') }),
    /** `reason`: why a refused photo was refused, in words for the visitor. */
    response: z.object({ image_hash: z.string(), moderation: moderationState, reason: z.string().optional() }),
  },
  'get-thumbnails': {
    params: z.object({ image_hash: imageHash('image_hash') }),
    /**
     * `image: null, paused: true`: a generative style whose free previews are paused today (the tile keeps its sample).
     * `image: null, busy: true`: a generative style whose model had no capacity for previews while the job waited
     * (a busy minute); the next previews request tries it again.
     */
    response: z.array(
      z.union([
        z.object({ style: z.object({ id: styleId }), image: z.string() }),
        z.object({ style: z.object({ id: styleId }), image: z.null(), paused: z.literal(true) }),
        z.object({ style: z.object({ id: styleId }), image: z.null(), busy: z.literal(true) }),
      ]),
    ),
  },
  checkout: {
    request: z.object({
      email,
      hashes: hashList('hashes'),
      styles: z
        .array(styleId, { error: 'styles must be a non-empty list of style ids.' })
        .min(1, 'styles must be a non-empty list of style ids.')
        .transform((styles) => [...new Set(styles)]),
    }),
    response: z.object({ session_id: z.string(), order_id: serverId, url: z.string().nullable() }),
  },
  'preview-signup': {
    request: z.object({ email, image_hash: imageHash('image_hash') }),
    response: z.object({ status: z.enum(['signed_up', 'already_signed_up']) }),
  },
  'stripe-webhook': {
    /** The body is Stripe's signed event, checked by the Stripe SDK, not by a schema. */
    response: z.object({
      received: z.literal(true),
      ignored: z.string().optional(),
      duplicate: z.boolean().optional(),
      outcome: z.string().optional(),
    }),
  },
  'get-generation': {
    params: z.object({ id: z.string() }),
    response: z.object({
      status: generationStatus,
      progress: z.number(),
      error: z.string().nullable(),
      images: z.array(deliveredImage),
      refund: z
        .object({ amount: z.number(), currency: z.string(), items: z.number(), refunded_at: z.string() })
        .optional(),
      failed: z
        .array(
          z.object({ imageHash: z.string(), styleId: z.string(), styleName: z.string(), error: z.string().nullable() }),
        )
        .optional(),
      /**
       * Every (photo, style) of the order and where it is: `queued` waits for capacity (a busy evening, a throttled
       * model) and starts by itself; `pending` is still to render; `done` delivered; `failed` refunded.
       */
      items: z.array(
        z.object({
          imageHash: z.string(),
          styleId: z.string(),
          state: z.enum(ITEM_STATES),
        }),
      ),
      /** How many items wait for capacity now (the status page says the order is queued). */
      queued: z.number(),
      /**
       * The receipt (domain/order-receipt.ts, the e-mail's own lines): what was bought, the discount, the amount paid,
       * what was refunded and why; formatted on the server from the order record. null when the order record is gone.
       */
      receipt: z
        .array(
          z.object({
            label: z.string(),
            value: z.string(),
            note: z.string().optional(),
            strong: z.boolean().optional(),
          }),
        )
        .nullable(),
    }),
    /**
     * 410 Gone: the customer deleted the order's photos and images (POST /api/generation/{id}/delete). `erased_at` says
     * when (ISO 8601), so the status page can say it in the visitor's own time; an unknown id stays a 404.
     */
    gone: z.object({ detail: z.string(), erased_at: z.string() }),
  },
  'delete-order-data': {
    params: z.object({ id: z.string() }),
    /** Nothing to say: the path names the order, the page asked for confirmation. */
    request: z.object({}),
    /** What was deleted (lambdas/lib/erasure.ts); the order keeps only its accounting figures. */
    response: z.object({
      deleted: z.object({
        photos_deleted: z.number(),
        photos_kept: z.number(),
        files_deleted: z.number(),
        email_removed: z.boolean(),
        signups_deleted: z.number(),
      }),
    }),
  },
  'get-image': {
    /** `id`: a share id (one photo of one order), never a photo's hash. */
    params: z.object({ id: z.string(), style: z.string() }),
    response: deliveredImage,
  },
  'get-images': {
    params: z.object({ id: z.string() }),
    response: z.array(deliveredImage),
  },
  'request-erasure': {
    /** Always 202, whether the address has data or not: the answer must not tell a stranger. */
    request: z.object({ email }),
    response: z.object({ status: z.literal('sent') }),
  },
  'confirm-erasure': {
    /** `token`: the one-time token of the link e-mailed to the address. */
    params: z.object({ token: z.string() }),
    request: z.object({}),
    response: z.object({
      deleted: z.object({
        orders_erased: z.number(),
        orders_in_progress: z.number(),
        photos_deleted: z.number(),
        files_deleted: z.number(),
        signups_deleted: z.number(),
      }),
    }),
  },
  'share-card': {
    /** The share's JPEG (SHARE_CARD size) that `og:image` names; the body is the image itself, not JSON. */
    params: z.object({ id: z.string(), style: z.string() }),
    response: z.instanceof(Uint8Array),
  },
  'share-page': {
    /** `/image/{id}/{style}` as HTML: the app shell with the share's own title and social tags, for browsers and crawlers. */
    params: z.object({ id: z.string(), style: z.string() }),
    response: z.string(),
  },
  'share-gallery-page': {
    params: z.object({ id: z.string() }),
    response: z.string(),
  },
} as const;

export type Contract = typeof contract;
export type RouteName = keyof Contract;
/** What a handler may answer with for a route (before any transform). */
export type ResponseOf<R extends RouteName> = z.input<Contract[R]['response']>;
/** Routes that answer 410 Gone for what was deleted on purpose, and that answer's body. */
/** A route's query string parameters, for routes that take any. */
export type QueryOf<R extends RouteName> = z.input<
  Contract[R] extends { query: infer S extends z.ZodType } ? S : never
>;
export type GoneRoute = { [K in RouteName]: Contract[K] extends { gone: z.ZodType } ? K : never }[RouteName];
export type GoneOf<R extends GoneRoute> = z.input<Contract[R] extends { gone: infer S extends z.ZodType } ? S : never>;
/** A request body as the browser sends it. */
export type RequestOf<
  R extends { [K in RouteName]: Contract[K] extends { request: z.ZodType } ? K : never }[RouteName],
> = z.input<Contract[R] extends { request: infer S extends z.ZodType } ? S : never>;

// Frontend-facing names for the shapes it reads.
export type AppConfig = ResponseOf<'config'>;
export type Style = ResponseOf<'available-styles'>['styles'][number];
export type Thumbnail = ResponseOf<'get-thumbnails'>[number];
export type ModerationResult = ResponseOf<'get-moderation'>;
export type RegisterResult = ResponseOf<'upload-image'>;
export type CheckoutResponse = ResponseOf<'checkout'>;
export type Generation = ResponseOf<'get-generation'>;
export type ErasureReport = ResponseOf<'delete-order-data'>['deleted'];
export type AddressErasureReport = ResponseOf<'confirm-erasure'>['deleted'];
export type GenerationGone = GoneOf<'get-generation'>;
export type GenerationStatus = Generation['status'];
