/**
 * How long browsers and CloudFront may keep each file of the built site, the one definition the deployment
 * (lib/site.ts) and the local gateway (local/gateway.ts) both read; test/infra/site-cache.test.ts compares them.
 *
 * Vite's chunks (`assets/`) and the article figures (`figures/`, `npm run figures`) carry a hash of their content in
 * their names: a changed file is a new name, so a copy may be kept for a year without asking. Everything else
 * (pages, the app shell, the favicon, thumbnails, sitemap and feed) keeps its name across builds, so the browser
 * asks each time (`no-cache` revalidates with the ETag: a 304 when unchanged).
 */

/** Top-level folders of frontend/dist whose every file name holds a hash of its content. */
export const HASHED_DIRS = ['assets', 'figures'] as const;

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** `Cache-Control` of the file at `key`, a path inside frontend/dist (`/assets/x.js` or `assets/x.js`). */
export function cacheControlFor(key: string): string {
  const [dir = '', ...rest] = key.replace(/^\/+/, '').split('/');
  return rest.length && (HASHED_DIRS as readonly string[]).includes(dir)
    ? IMMUTABLE_CACHE_CONTROL
    : REVALIDATE_CACHE_CONTROL;
}
