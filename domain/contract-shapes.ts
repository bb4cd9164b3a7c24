/**
 * The building blocks of the API contract (domain/contract.ts): the fields the routes' requests check, with their
 * user-facing messages, and the shapes several responses share.
 */
import { z } from 'zod';
import { EMAIL_MESSAGES, isValidEmail } from './email';
import { IMAGE_HASH_RE } from './image-format';
import { STYLE_IDS, type StyleId } from './styles';
import { MAX_FILES } from './upload-rules';

// ---------------------------------------------------------------------------------------------------------------
// Building blocks

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A photo's identity: the SHA-256 of its bytes. */
export const imageHash = (field = 'image_hash') =>
  z
    .string({ error: `${field} must be a SHA-256 hash (64 lowercase hex characters).` })
    .regex(IMAGE_HASH_RE, `${field} must be a SHA-256 hash (64 lowercase hex characters).`);

/** Ids the server makes (jobs, orders, generations): a malformed one is simply not found. */
export const serverId = z.string().regex(UUID_RE);
export const isServerId = (value: unknown): value is string => serverId.safeParse(value).success;

export const styleId = z.enum(STYLE_IDS as [StyleId, ...StyleId[]], {
  error: (iss) => `Unknown style: ${JSON.stringify(iss.input).slice(0, 40)}.`,
});

/** 1 to MAX_FILES photo hashes, duplicates removed. */
export const hashList = (field: string) =>
  z
    .array(imageHash(field), { error: `${field} must be a non-empty list of image hashes.` })
    .min(1, `${field} must be a non-empty list of image hashes.`)
    .max(MAX_FILES, `At most ${MAX_FILES} images per request.`)
    .transform((hashes) => [...new Set(hashes)]);

export const email = z
  .string({ error: EMAIL_MESSAGES.required })
  .trim()
  .min(1, EMAIL_MESSAGES.required)
  .refine(isValidEmail, EMAIL_MESSAGES.invalid);

export const PAYMENT_MODES = ['stripe', 'simulated', 'prelaunch'] as const;
export const paymentMode = z.enum(PAYMENT_MODES);
export type PaymentMode = z.infer<typeof paymentMode>;

// ---------------------------------------------------------------------------------------------------------------
// Shapes shared by several responses

export const deliveredImage = z.object({
  url: z.string(),
  styleName: z.string(),
  styleId: z.string(),
  imageHash: z.string(),
  /** The share link's id of this photo in its order (`/image/{shareId}[/{styleId}]`): never the photo's hash. */
  shareId: z.string(),
  description: z.string().optional(),
  /** A generative AI model draws this style in this deployment (as available-styles' aiGenerated). */
  aiGenerated: z.boolean().optional(),
});
export type GeneratedImage = z.infer<typeof deliveredImage>;

export const jobStatus = z.enum(['PENDING', 'STARTED', 'SUCCESS', 'FAILURE']);
export type JobStatus = z.infer<typeof jobStatus>;

export const moderationState = z.enum(['allowed', 'rejected', 'invalid', 'pending']);
export type ModerationState = z.infer<typeof moderationState>;

export const generationStatus = z.enum(['pending', 'processing', 'completed', 'failed']);
