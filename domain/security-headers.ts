/**
 * The one definition of the HTTP security headers. Plain data, no CDK: the CloudFront response headers policy
 * (lib/site-headers.ts), the local gateway (local/gateway.ts) and the API's HTTP wrapper (lambdas/lib/http.ts) all
 * import it, so what `npm start` serves is what CloudFront serves.
 */

export interface SiteHeaderOptions {
  /** Origin of the media bucket's presigned URLs (uploads PUT there, images load from there), e.g. `https://b.s3.eu-west-1.amazonaws.com`. */
  readonly mediaOrigin: string;
  /** Served over HTTPS (CloudFront): adds HSTS and upgrade-insecure-requests. The local runtime is plain HTTP. */
  readonly https: boolean;
}

/**
 * What the single-page app needs, nothing more: its own scripts only (no inline script, no eval); inline styles
 * (React style attributes and the toast library's injected stylesheet); images from the site, the media bucket,
 * data: and blob: (the photos a visitor picks are shown from object URLs); fetches to the API and the media bucket
 * (presigned uploads and downloads). Stripe Checkout is a top-level navigation, which CSP does not restrict.
 */
export function contentSecurityPolicy(o: SiteHeaderOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', o.mediaOrigin],
    'connect-src': ["'self'", o.mediaOrigin],
    'font-src': ["'self'", 'data:'],
    'manifest-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const text = Object.entries(directives).map(([k, v]) => `${k} ${v.join(' ')}`);
  if (o.https) text.push('upgrade-insecure-requests');
  return text.join('; ');
}

/** Headers every response carries, site and API alike (lower-case names, as Node and API Gateway send them). */
export const COMMON_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** HSTS: two years, subdomains included (the site is HTTPS only). */
export const HSTS_SECONDS = 63_072_000;

/** The site's headers (pages, scripts, images). */
export function siteSecurityHeaders(o: SiteHeaderOptions): Record<string, string> {
  return {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(o),
    ...(o.https ? { 'strict-transport-security': `max-age=${HSTS_SECONDS}; includeSubDomains` } : {}),
  };
}

/**
 * The API's headers: JSON is never a document, so it may load nothing and be framed by no one. HSTS is added at
 * the edge for the site; API Gateway answers HTTPS only, and the header is harmless on HTTP locally (browsers ignore it).
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  ...COMMON_SECURITY_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': `max-age=${HSTS_SECONDS}; includeSubDomains`,
};

/**
 * Header CloudFront adds to every request it sends to the API, with a secret value; the HTTP wrapper refuses requests
 * without it, so the API's execute-api endpoint is useless without going through CloudFront (and its WAF).
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
