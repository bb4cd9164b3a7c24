/**
 * A page's <head>, defined once per page with `usePageHead`. The build's prerender collects it while rendering
 * (HeadCollector) and writes the tags into the static HTML; in the browser the hook updates <head> on navigation
 * and puts the site defaults back after.
 */
import { createContext, useContext, useEffect } from 'react';
import { DEFAULT_BRAND } from './config';
import { defaultHead, type HeadTag, headTags, type PageHead } from './head-tags';

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
