import { ArrowRight, BookOpen, CalendarDays } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { contentPath } from '../../../domain/site-routes';
import { type ContentEntry, formatArticleDate, withBrand } from '../blog/content';
import { articles, guides } from '../blog/entries';
import { useBrand } from '../lib/config';
import { usePageHead } from '../lib/page-head';
import { PageShell } from './PageShell';

/** Link cards, newest first: title (or the slug as words), date when present, description. */
function EntryList({ entries, brand, cta }: { entries: ContentEntry[]; brand: string; cta: string }) {
  return (
    <ul className="grid gap-5 md:grid-cols-2">
      {entries.map((a) => (
        <li key={a.slug}>
          <Link
            to={contentPath(a.collection, a.slug)}
            className="group flex h-full flex-col rounded-2xl border border-border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
          >
            {a.date && (
              <p className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
                <CalendarDays aria-hidden="true" className="size-3.5" />
                <time dateTime={a.date}>{formatArticleDate(a.date)}</time>
              </p>
            )}
            <h2 className="mt-2 text-xl leading-snug font-semibold group-hover:text-primary">
              {withBrand(a.title, brand)}
            </h2>
            {a.description && (
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{withBrand(a.description, brand)}</p>
            )}
            <span className="mt-auto flex items-center gap-1 pt-4 text-sm font-semibold text-primary">
              {cta}
              <ArrowRight aria-hidden="true" className="size-4 transition group-hover:translate-x-0.5" />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** An index page: its head, heading and entry list; `footer` is what it links to next. */
function ContentIndex({
  head,
  title,
  intro,
  entries,
  cta,
  footer,
}: {
  head: (brand: string) => { title: string; description: string; path: string };
  title: (brand: string) => string;
  intro: string;
  entries: ContentEntry[];
  cta: string;
  footer: (brand: string) => ReactNode;
}) {
  const brand = useBrand();
  usePageHead(head(brand), brand);
  return (
    <PageShell title={title(brand)} intro={intro}>
      <EntryList entries={entries} brand={brand} cta={cta} />
      {footer(brand)}
    </PageShell>
  );
}

export function BlogIndexPage() {
  return (
    <ContentIndex
      head={(brand) => ({
        title: `Blog | ${brand}`,
        description: `Tips, guides and ideas for turning your photos into cartoon art with ${brand}.`,
        path: '/blog',
      })}
      title={(brand) => `The ${brand} Blog`}
      intro="Tips, guides and ideas for turning your photos into cartoon art."
      entries={articles}
      cta="Read article"
      footer={() => (
        <aside className="mt-10 flex flex-col items-start gap-3 rounded-2xl border border-border bg-muted/50 p-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 font-medium">
            <BookOpen aria-hidden="true" className="size-5 text-primary" />
            Step-by-step guides and tool comparisons
          </p>
          <Link
            to="/guides"
            className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline"
          >
            Browse all guides
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </aside>
      )}
    />
  );
}

export function GuidesIndexPage() {
  return (
    <ContentIndex
      head={(brand) => ({
        title: `Guides | ${brand}`,
        description: `Guides to cartoon and avatar makers: how-tos, comparisons and what ${brand} can do for you.`,
        path: '/guides',
      })}
      title={(brand) => `${brand} Guides`}
      intro="How-tos and comparisons for making cartoons and avatars from your photos."
      entries={guides}
      cta="Read guide"
      footer={(brand) => (
        <p className="mt-10 text-sm text-muted-foreground">
          More tips on the{' '}
          <Link to="/blog" className="font-medium text-primary underline underline-offset-4">
            {brand} Blog
          </Link>
          .
        </p>
      )}
    />
  );
}
