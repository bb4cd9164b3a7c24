/**
 * How long data is kept, and where visitors write to. One source: lib/config.ts hands these periods to the stack
 * (S3 lifecycle rules, DynamoDB TTL), the handlers stamp records with them, and the privacy page prints them.
 */

/** Retention periods in days. */
export const RETENTION_DAYS = {
  /** Uploaded photos (media bucket uploads/), from upload. */
  uploads: 30,
  /**
   * Uploads never checked (a registration's own upload, uploads/proofs/, that never reached the style step): the
   * shortest period S3 lifecycle has. Checked ones are moved to the photo's stored copy at once.
   */
  uncheckedUploads: 1,
  /** Watermarked previews (previews/), from creation. */
  previews: 7,
  /** Generated images (outputs/), from creation. */
  outputs: 30,
  /** Records of uploaded photos (hash, type, moderation verdict), from first upload. */
  imageRecords: 30,
  /** Orders never paid (checkout abandoned or expired), from creation. */
  unpaidOrders: 30,
  /** Launch sign-ups (e-mail address), from sign-up. */
  signups: 365,
  /** Background jobs (moderation, previews), from creation. */
  jobs: 7,
} as const;

export type RetentionKey = keyof typeof RETENTION_DAYS;

const DAY_SECONDS = 24 * 3600;

/** The DynamoDB TTL value (the tables' `expires_at`, Unix seconds) for a record of this kind created at `now`. */
export function expiresAt(kind: RetentionKey, now: Date = new Date()): number {
  return Math.floor(now.getTime() / 1000) + RETENTION_DAYS[kind] * DAY_SECONDS;
}

/** The deployed default; each environment sets its own in lib/config.ts (served by GET /api/config). */
export const DEFAULT_SUPPORT_EMAIL = 'support@toonzap.example';
