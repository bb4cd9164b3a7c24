import { ArrowLeft, CalendarDays } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, type LoaderFunctionArgs, replace, useLoaderData, useNavigate } from 'react-router';
import { CONTENT_COLLECTIONS, type ContentCollection, contentPath } from '../../../domain/site-routes';
import { type ContentEntry, formatArticleDate, htmlWithBrand, withBrand } from '../blog/content';
import { findEntry, loadBody } from '../blog/entries';
import { ButtonLink } from '../components/ui/button';
import { useBrand } from '../lib/config';
import { usePageHead } from '../lib/page-head';

interface ArticleData {
  entry: ContentEntry;
  html: string;
}

/** Loads the entry's body chunk before the page shows; an unknown slug is replaced by /404 (Back skips it). */
export function contentLoader(collection: ContentCollection) {
  return async ({ params }: LoaderFunctionArgs): Promise<ArticleData> => {
    const entry = findEntry(collection, params.slug ?? '');
    if (!entry) throw replace('/404');
    return { entry, html: await loadBody(entry) };
  };
}

const SECTION = {
  blog: { suffix: 'Blog', back: 'All articles' },
  guides: { suffix: 'Guides', back: 'All guides' },
} as const;

const PROSE = [
  'mt-8 text-[17px] leading-8 text-foreground/90',
  '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-foreground',
  '[&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:mt-6 [&_h4]:font-semibold',
  '[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1.5',
  '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
  '[&_blockquote]:mt-4 [&_blockquote]:border-l-4 [&_blockquote]:border-primary/40 [&_blockquote]:pl-4 [&_blockquote]:italic',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-sm [&_strong]:font-semibold [&_strong]:text-foreground',
  '[&_hr]:my-8 [&_hr]:border-border [&_img]:mt-4 [&_img]:rounded-xl',
  // The before/after figure (frontend/build/figures.ts): two images side by side, sized by their width/height.
  '[&_figure]:mt-8 [&_figure>div]:grid [&_figure>div]:grid-cols-2 [&_figure>div]:gap-3 [&_figure_img]:mt-0 [&_figure_img]:h-auto [&_figure_img]:w-full [&_figure_img]:border [&_figure_img]:border-border [&_figure_img]:bg-muted',
  '[&_figcaption]:mt-3 [&_figcaption]:text-sm [&_figcaption]:leading-6 [&_figcaption]:text-muted-foreground',
  '[&_table]:mt-4 [&_table]:block [&_table]:overflow-x-auto [&_table]:text-left [&_table]:text-[15px] [&_th]:border-b [&_th]:border-border [&_th]:px-3 [&_th]:py-2 [&_th]:font-semibold [&_td]:border-b [&_td]:border-border [&_td]:px-3 [&_td]:py-2',
].join(' ');

function ArticleView({ collection }: { collection: ContentCollection }) {
  const { entry, html } = useLoaderData() as ArticleData;
  const brand = useBrand();
  const navigate = useNavigate();
  const section = SECTION[collection];
  const title = withBrand(entry.title, brand);
  const description = entry.description
    ? withBrand(entry.description, brand)
    : `Read this article on the ${brand} blog.`;
  usePageHead(
    {
      title: `${title} | ${brand} ${section.suffix}`,
      socialTitle: title,
      description,
      path: contentPath(collection, entry.slug),
      type: 'article',
      image: entry.image,
    },
    brand,
  );

  // Links inside the Markdown body are plain <a>: keep same-site ones in the app.
  const onBodyClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest('a');
    const href = a?.getAttribute('href');
    if (
      !a ||
      !href?.startsWith('/') ||
      href.startsWith('//') ||
      a.target ||
      e.button !== 0 ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.altKey
    )
      return;
    e.preventDefault();
    navigate(href);
  };

  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <Link
        to={CONTENT_COLLECTIONS[collection].base}
        className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {section.back}
      </Link>
      <h1 className="mt-6 text-3xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
      {entry.date && (
        <p className="mt-4 flex items-center gap-1.5 text-sm text-muted-foreground">
          <CalendarDays aria-hidden="true" className="size-4" />
          <time dateTime={entry.date}>{formatArticleDate(entry.date)}</time>
        </p>
      )}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: delegates clicks of the links inside, which keep their own keyboard behaviour */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the same delegation; the div itself is not interactive */}
      <div
        className={PROSE}
        onClick={onBodyClick}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML made at build time from our own Markdown; raw HTML in it is dropped, the brand is escaped
        dangerouslySetInnerHTML={{ __html: htmlWithBrand(html, brand) }}
      />
      <hr className="my-12 border-border" />
      <section className="relative overflow-hidden rounded-3xl border border-border bg-card p-8 text-center shadow-sm sm:p-10">
        <div aria-hidden="true" className="brand-gradient absolute inset-x-0 top-0 h-1.5" />
        <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Ready to Cartoonize Your Photos?</h2>
        <p className="mx-auto mt-3 max-w-md text-muted-foreground">
          Upload a photo and preview every style on your own picture.
        </p>
        <ButtonLink to="/" variant="gradient" size="lg" className="mt-6">
          {`Try ${brand} Now!`}
        </ButtonLink>
      </section>
    </article>
  );
}

export const blogLoader = contentLoader('blog');
export const guideLoader = contentLoader('guides');

export function BlogArticlePage() {
  return <ArticleView collection="blog" />;
}

export function GuidePage() {
  return <ArticleView collection="guides" />;
}
