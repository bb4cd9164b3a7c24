/** Blog articles and guides: what the index pages list, their order and display helpers. Pure, so it is unit-tested. */
import type { ContentCollection } from '../../../domain/site-routes';

/** One Markdown page's front matter (read at build time by frontend/build/content.ts). */
export interface ContentEntry {
  collection: ContentCollection;
  slug: string;
  title: string;
  description?: string;
  /** ISO date (YYYY-MM-DD) when present. */
  date?: string;
  image?: string;
}

/** 'make-your-pet' -> 'Make your pet'. */
export function titleFromSlug(slug: string): string {
  const spaced = slug.replace(/-/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Newest first; undated entries last, then by title. */
export function sortEntries<T extends { date?: string; title: string }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => {
    if (a.date && b.date && a.date !== b.date) return a.date < b.date ? 1 : -1;
    if (a.date && !b.date) return -1;
    if (!a.date && b.date) return 1;
    return a.title.localeCompare(b.title);
  });
}

/** Fills the {brand} placeholder used in article text. */
export function withBrand(text: string, brand: string): string {
  return text.replace(/\{brand\}/g, brand);
}

/** The same in rendered HTML: the brand is text, so it is escaped. */
export function htmlWithBrand(html: string, brand: string): string {
  const escaped = brand.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return withBrand(html, escaped);
}

/** Local-format date for display ('2025-05-09' -> e.g. 'May 9, 2025'), or the raw text if unparseable. */
export function formatArticleDate(date: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const d = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date(date);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}
