import { ArrowRight, BookOpen, CalendarDays } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CONTENT_COLLECTIONS, type ContentCollection, contentPath } from '../../../domain/site-routes';
import { type ContentEntry, formatArticleDate, withBrand } from '../blog/content';
import { articles, guides } from '../blog/entries';
import { useBrand } from '../lib/config';
import { usePageHead } from '../lib/page-head';
import { PageShell } from './page-shell';

const ENTRIES: Record<ContentCollection, ContentEntry[]> = { blog: articles, guides };

/** Link cards, newest first: title (or the slug as words), date when present, description. */
function EntryList({ entries, brand, cta }: { entries: ContentEntry[]; brand: string; cta: string }) {
  return (
    <ul className="grid gap-5 md:grid-cols-2">
      {entries.map((a) => (
        <li key={a.slug}>
          <Link
            to={contentPath(a.collection, a.slug)}
            className="group render-near-screen flex h-full flex-col rounded-2xl border border-border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
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

/**
 * A collection's index page at its base path, listing its entries: `name` titles the browser tab, `heading` the page;
 * `footer` is what it links to next.
 */
function ContentIndex({
  collection,
  name,
  heading,
  description,
  intro,
  cta,
  footer,
}: {
  collection: ContentCollection;
  name: string;
  heading: (brand: string) => string;
  description: (brand: string) => string;
  intro: string;
  cta: string;
  footer: (brand: string) => ReactNode;
}) {
  const brand = useBrand();
  const path = CONTENT_COLLECTIONS[collection].base;
  usePageHead({ title: `${name} | ${brand}`, description: description(brand), path }, brand);
  return (
    <PageShell title={heading(brand)} intro={intro}>
      <EntryList entries={ENTRIES[collection]} brand={brand} cta={cta} />
      {footer(brand)}
    </PageShell>
  );
}

export function BlogIndexPage() {
  return (
    <ContentIndex
      collection="blog"
      name="Blog"
      heading={(brand) => `The ${brand} Blog`}
      description={(brand) => `Tips, guides and ideas for turning your photos into cartoon art with ${brand}.`}
      intro="Tips, guides and ideas for turning your photos into cartoon art."
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
      collection="guides"
      name="Guides"
      heading={(brand) => `${brand} Guides`}
      description={(brand) =>
        `Guides to cartoon and avatar makers: how-tos, comparisons and what ${brand} can do for you.`
      }
      intro="How-tos and comparisons for making cartoons and avatars from your photos."
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
