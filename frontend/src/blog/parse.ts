/** Blog article parsing (front matter + body) and ordering. Pure, so it is unit-tested. */

export interface Article {
  slug: string;
  title: string;
  description?: string;
  /** ISO date (YYYY-MM-DD) when present. */
  date?: string;
  image?: string;
  body: string;
}

/** 'posts/make-your-pet.md' -> 'make-your-pet' (file name without folder and md/mdx extension). */
export function slugFromPath(path: string): string {
  const file = path.split('/').pop() ?? path;
  return file.replace(/\.mdx?$/i, '');
}

/** 'make-your-pet' -> 'Make your pet'. */
export function titleFromSlug(slug: string): string {
  const spaced = slug.replace(/-/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function unquote(value: string): string {
  const v = value.trim();
  if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) return v.slice(1, -1);
  return v;
}

/** Parses simple `key: value` front matter between leading '---' lines. */
export function parseArticle(path: string, raw: string): Article {
  const text = raw.replace(/\r\n/g, '\n');
  const meta: Record<string, string> = {};
  let body = text;
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (match) {
    body = text.slice(match[0].length);
    for (const line of match[1].split('\n')) {
      const i = line.indexOf(':');
      if (i > 0) meta[line.slice(0, i).trim().toLowerCase()] = unquote(line.slice(i + 1));
    }
  }
  const slug = slugFromPath(path);
  return {
    slug,
    title: meta.title || titleFromSlug(slug),
    description: meta.description || undefined,
    date: meta.date || undefined,
    image: meta.image || undefined,
    body: body.trim(),
  };
}

/** Newest first; undated articles last, then by title. */
export function sortArticles(articles: Article[]): Article[] {
  return [...articles].sort((a, b) => {
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

/** Local-format date for display ('2025-05-09' -> e.g. 'May 9, 2025'), or the raw text if unparseable. */
export function formatArticleDate(date: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const d = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date(date);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}
