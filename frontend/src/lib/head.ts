import { useEffect } from 'react';

/** Sets document.title while the component is shown, restoring the previous title afterwards. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}

export type MetaTag = { name?: string; property?: string; content: string };

/**
 * Upserts <meta> tags in <head> while mounted and restores what was there before, so static defaults
 * in index.html are overridden rather than duplicated.
 */
export function useMetaTags(tags: MetaTag[]): void {
  const key = JSON.stringify(tags);
  useEffect(() => {
    const restore: Array<() => void> = [];
    for (const tag of JSON.parse(key) as MetaTag[]) {
      const attr = tag.name ? 'name' : 'property';
      const value = (tag.name ?? tag.property) as string;
      let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${CSS.escape(value)}"]`);
      if (el) {
        const prev = el.content;
        const node = el;
        restore.push(() => {
          node.content = prev;
        });
      } else {
        el = document.createElement('meta');
        el.setAttribute(attr, value);
        document.head.appendChild(el);
        const node = el;
        restore.push(() => node.remove());
      }
      el.content = tag.content;
    }
    return () => {
      for (const r of restore.reverse()) r();
    };
  }, [key]);
}
