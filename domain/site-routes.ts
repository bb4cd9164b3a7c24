/**
 * The site's routes, defined once (pure data). The React router maps each id to its page
 * (frontend/src/routes.tsx), the build prerenders the static pages and one page per content file
 * (frontend/build/), and lib/site-function.ts generates the CloudFront Function from this list, which the
 * local gateway runs as it is. Paths use React Router's syntax: `:param` is one segment, `:param?` optional.
 */

/** Markdown collections: one page per file `<dir>/<slug>.md` at `<base>/<slug>`; other slugs are 404. */
export const CONTENT_COLLECTIONS = {
  blog: { dir: 'frontend/src/blog/posts', base: '/blog' },
  guides: { dir: 'frontend/src/guides', base: '/guides' },
} as const;

export type ContentCollection = keyof typeof CONTENT_COLLECTIONS;

export interface SiteRoute {
  readonly id: string;
  readonly path: string;
  /** Rendered to static HTML at build time (with its title, description, canonical URL and social tags). */
  readonly prerender?: true;
  /** One prerendered page per file of this collection; any other slug is not found. */
  readonly collection?: ContentCollection;
  /** Listed in sitemap.xml (collection pages always are). */
  readonly sitemap?: true;
}

export const SITE_ROUTES = [
  // Prerendered as index.html (the router-free landing shell, frontend/src/Shell.tsx).
  { id: 'home', path: '/', prerender: true, sitemap: true },
  { id: 'pricing', path: '/pricing', prerender: true, sitemap: true },
  { id: 'terms', path: '/terms', prerender: true, sitemap: true },
  { id: 'privacy', path: '/privacy', prerender: true, sitemap: true },
  { id: 'refund', path: '/refund', prerender: true, sitemap: true },
  { id: 'status', path: '/status/:id?' },
  // Erasing everything tied to an e-mail address: ask for a link (no token), confirm it (the token of the link).
  { id: 'forget', path: '/forget/:token?' },
  // Share pages: CloudFront sends these to the API (API_ORIGIN_PATHS), which serves the app shell with the share's
  // own social tags (lambdas/lib/share-page.ts); the app then renders them like any app route.
  { id: 'image', path: '/image/:id/:style' },
  { id: 'gallery', path: '/image/:id' },
  { id: 'blog', path: '/blog', prerender: true, sitemap: true },
  { id: 'article', path: '/blog/:slug', collection: 'blog' },
  { id: 'guides', path: '/guides', prerender: true, sitemap: true },
  { id: 'guide', path: '/guides/:slug', collection: 'guides' },
  // Also the body of every 404 answer (lib/site-function.ts).
  { id: 'notFound', path: '/404', prerender: true },
] as const satisfies readonly SiteRoute[];

export type SiteRouteId = (typeof SITE_ROUTES)[number]['id'];

/** The path of one content page: ('blog', 'x') -> '/blog/x'. */
export function contentPath(collection: ContentCollection, slug: string): string {
  return `${CONTENT_COLLECTIONS[collection].base}/${slug}`;
}

/** A route path as a regular expression source over a URL path without trailing slash ('/status/:id?' -> ^/status(?:/[^/]+)?$). */
export function routePattern(path: string): string {
  if (path === '/') return '^/$';
  const parts = path
    .split('/')
    .slice(1)
    .map((seg) => {
      if (seg.startsWith(':')) return seg.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    });
  return `^${parts.join('')}$`;
}

/** A content file name -> its slug ('make-your-pet.md' -> 'make-your-pet'); null for anything but .md/.mdx. */
export function slugFromFile(file: string): string | null {
  const name = file.split('/').pop() ?? file;
  const m = /^([a-z0-9][a-z0-9-]*)\.mdx?$/i.exec(name);
  return m ? m[1] : null;
}
