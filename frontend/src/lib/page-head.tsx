/**
 * A page's <head>: title, description, canonical URL and social tags, defined once per page with
 * `usePageHead`. The build's prerender collects it while rendering (HeadCollector) and writes the tags into
 * the static HTML; in the browser the hook updates <head> on navigation and puts the site defaults back after.
 */
import { createContext, useContext, useEffect } from 'react';
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

/** Static markup of a head (the prerender's; React escapes the values). */
export function HeadElements({ head }: { head: PageHead }) {
  return (
    <>
      <title>{head.title}</title>
      {headTags(head).map((t) =>
        t.tag === 'meta' ? (
          t.key === 'name' ? (
            <meta key={t.name} name={t.name} content={t.content} />
          ) : (
            <meta key={t.name} property={t.name} content={t.content} />
          )
        ) : (
          <link key={t.rel} rel={t.rel} href={t.href} type={t.type} title={t.title} />
        ),
      )}
    </>
  );
}

/** Set by the prerender: the head of the page being rendered. */
export const HeadCollector = createContext<{ head?: PageHead } | null>(null);

const MANAGED_META = [
  'description',
  'robots',
  'og:type',
  'og:title',
  'og:description',
  'og:url',
  'og:image',
  'twitter:card',
  'twitter:title',
  'twitter:description',
  'twitter:image',
];

function applyHead(head: PageHead): void {
  document.title = head.title;
  const tags = headTags(head);
  for (const name of MANAGED_META) {
    const tag = tags.find((t) => t.tag === 'meta' && t.name === name) as Extract<HeadTag, { tag: 'meta' }> | undefined;
    const attr = name.startsWith('og:') ? 'property' : 'name';
    let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${name}"]`);
    if (!tag) {
      el?.remove();
      continue;
    }
    if (!el) {
      el = document.createElement('meta');
      el.setAttribute(attr, name);
      document.head.appendChild(el);
    }
    el.content = tag.content;
  }
  const canonical = tags.find((t) => t.tag === 'link' && t.rel === 'canonical') as
    | Extract<HeadTag, { tag: 'link' }>
    | undefined;
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!canonical) link?.remove();
  else {
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.appendChild(link);
    }
    link.href = canonical.href;
  }
}

/** The page's head: collected when prerendering, applied in the browser (site defaults again on leaving). */
export function usePageHead(head: PageHead, brand: string = DEFAULT_BRAND): void {
  const collector = useContext(HeadCollector);
  if (collector) collector.head = head;
  const key = JSON.stringify(head);
  useEffect(() => {
    applyHead(JSON.parse(key) as PageHead);
    return () => applyHead(defaultHead(brand));
  }, [key, brand]);
}
