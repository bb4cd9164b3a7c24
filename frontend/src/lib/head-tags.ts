/**
 * What a page's <head> says: title, description, canonical URL and social tags, as data. The prerender writes
 * them into the static HTML and the browser applies them (page-head.tsx), both from `headTags`.
 */
import { DEFAULT_BRAND } from './config';

export interface PageHead {
  /** The whole <title>. */
  title: string;
  description: string;
  /** The page's path ('/blog/x'): canonical URL and og:url. */
  path?: string;
  /** Title for social cards, when it differs from <title> (an article's title without the blog suffix). */
  socialTitle?: string;
  type?: 'website' | 'article';
  /** Site path or absolute URL of the social image. */
  image?: string;
  /** Not for search engines (the not-found page). */
  noindex?: boolean;
}

export const DEFAULT_IMAGE = '/thumbnails/pixar.png';

/** The blog's Atom feed (written by the build), announced on every page. */
export const FEED_TITLE = `${DEFAULT_BRAND} Blog`;

/** The public origin the build was made for (PUBLIC_SITE_URL at build time). */
export const SITE_ORIGIN = __SITE_URL__.replace(/\/+$/, '');

export function absoluteUrl(pathOrUrl: string): string {
  return new URL(pathOrUrl, `${SITE_ORIGIN}/`).toString();
}

/** What the app shell says (index.html) and what a page without its own head shows. */
export function defaultHead(brand: string = DEFAULT_BRAND): PageHead {
  return {
    title: `${brand} – AI Cartoon Photo Transformer`,
    description:
      'Transform your photos into cartoon-style masterpieces with AI. One click to create unique, shareable art in seconds.',
  };
}

export type HeadTag =
  | { tag: 'meta'; key: 'name' | 'property'; name: string; content: string }
  | { tag: 'link'; rel: string; href: string; type?: string; title?: string };

/** The tags of a head besides <title>, in document order. */
export function headTags(head: PageHead): HeadTag[] {
  const social = head.socialTitle ?? head.title;
  const image = absoluteUrl(head.image ?? DEFAULT_IMAGE);
  const url = head.path ? absoluteUrl(head.path) : undefined;
  const meta = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
    tag: 'meta',
    key,
    name,
    content,
  });
  return [
    meta('name', 'description', head.description),
    ...(head.noindex ? [meta('name', 'robots', 'noindex')] : []),
    ...(url ? [{ tag: 'link', rel: 'canonical', href: url } as HeadTag] : []),
    meta('property', 'og:type', head.type ?? 'website'),
    meta('property', 'og:title', social),
    meta('property', 'og:description', head.description),
    ...(url ? [meta('property', 'og:url', url)] : []),
    meta('property', 'og:image', image),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', social),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', image),
    { tag: 'link', rel: 'alternate', type: 'application/atom+xml', title: FEED_TITLE, href: absoluteUrl('/feed.xml') },
  ];
}
