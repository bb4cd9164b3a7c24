import { ArrowRight, CalendarDays } from 'lucide-react';
import { Link } from 'react-router';
import { articles } from '../blog/articles';
import { formatArticleDate, withBrand } from '../blog/parse';
import { useBrand } from '../lib/config';
import { useDocumentTitle, useMetaTags } from '../lib/head';
import { PageShell } from './PageShell';

export default function BlogIndexPage() {
  const brand = useBrand();
  useDocumentTitle(`Blog | ${brand}`);
  useMetaTags([{ name: 'description', content: `Tips, guides and ideas for turning your photos into cartoon art with ${brand}.` }]);

  return (
    <PageShell title={`The ${brand} Blog`} intro="Tips, guides and ideas for turning your photos into cartoon art.">
      <ul className="grid gap-5 md:grid-cols-2">
        {articles.map((a) => (
          <li key={a.slug}>
            <Link
              to={`/blog/${a.slug}`}
              className="group flex h-full flex-col rounded-2xl border border-border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
            >
              {a.date && (
                <p className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
                  <CalendarDays aria-hidden="true" className="size-3.5" />
                  <time dateTime={a.date}>{formatArticleDate(a.date)}</time>
                </p>
              )}
              <h2 className="mt-2 text-xl leading-snug font-semibold group-hover:text-primary">{withBrand(a.title, brand)}</h2>
              {a.description && <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{withBrand(a.description, brand)}</p>}
              <span className="mt-auto flex items-center gap-1 pt-4 text-sm font-semibold text-primary">
                Read article
                <ArrowRight aria-hidden="true" className="size-4 transition group-hover:translate-x-0.5" />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </PageShell>
  );
}
