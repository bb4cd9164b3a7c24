/**
 * Who may reach what. A photo's SHA-256 is no secret (anyone with the same file computes it), so it opens nothing by
 * itself: the browser that uploads a photo holds an owner secret, and every call about the photo needs it. Paid
 * images are reached through their order: the status link (the order id) and share links (a share id per photo of
 * the order), both unguessable. docs/architecture.md "Who can see what" says why a cookie.
 */
import { RETENTION_DAYS } from './privacy';

/**
 * The owner secret's cookie: HttpOnly (page scripts never see it), SameSite=Strict (no other site's page sends it),
 * path /api (only the API reads it). The `__Host-` prefix would need https, which `npm start` does not serve.
 */
export const OWNER_COOKIE = 'tz_owner';

/** 32 random bytes, base64url: what the server issues; anything else in the cookie is ignored (and replaced). */
export const OWNER_SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

/** The secret lasts as long as an upload is kept: after that there is nothing left for it to open. */
export const OWNER_COOKIE_MAX_AGE_SECONDS = RETENTION_DAYS.uploads * 24 * 3600;

/** Share ids and registration ids: 128 random bits, base64url (22 characters). */
export const RANDOM_ID_RE = /^[A-Za-z0-9_-]{22}$/;
export const isRandomId = (value: unknown): value is string => typeof value === 'string' && RANDOM_ID_RE.test(value);

/**
 * The spec's placeholder hash: the preview sign-up step sends it when no photo passed moderation. It names no photo,
 * so signing up with it needs no owner.
 */
export const PLACEHOLDER_IMAGE_HASH = '0'.repeat(64);

/** The picture social networks show for a share link: their large-card size (1.91:1). */
export const SHARE_CARD = { width: 1200, height: 630, quality: 82 } as const;
