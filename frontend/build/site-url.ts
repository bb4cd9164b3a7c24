/**
 * The public origin written into canonical and social URLs and the sitemap: PUBLIC_SITE_URL when building for
 * a deployment (`PUBLIC_SITE_URL=https://example.com npm run deploy`), else the local runtime's default address.
 * (Not SITE_URL: the local runtime sets that in its own process for the handlers, with its port.)
 */
export const LOCAL_SITE_URL = 'http://localhost:3000';

export function siteUrl(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.PUBLIC_SITE_URL?.trim() || LOCAL_SITE_URL;
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`PUBLIC_SITE_URL must be an http(s) URL, not ${raw}`);
  return url.origin;
}
