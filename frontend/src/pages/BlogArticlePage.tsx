import { ArrowLeft, CalendarDays } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { findArticle } from '../blog/articles';
import { formatArticleDate, withBrand } from '../blog/parse';
import { MarkdownView } from '../components/MarkdownView';
import { ButtonLink } from '../components/ui/Button';
import { useBrand } from '../lib/config';
import { useDocumentTitle, useMetaTags } from '../lib/head';

const DEFAULT_IMAGE = '/thumbnails/pixar.png';

export default function BlogArticlePage() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const brand = useBrand();
  const article = findArticle(slug);

  useEffect(() => {
    if (!article) navigate('/404', { replace: true });
  }, [article, navigate]);

  const origin = window.location.origin;
  const title = article ? withBrand(article.title, brand) : '';
  const description = article?.description ? withBrand(article.description, brand) : `Read this article on the ${brand} blog.`;
  const image = new URL(article?.image ?? DEFAULT_IMAGE, origin).toString();
  useDocumentTitle(article ? `${title} | ${brand} Blog` : null);
  useMetaTags(
    article
      ? [
          { name: 'description', content: description },
          { property: 'og:title', content: title },
          { property: 'og:description', content: description },
          { property: 'og:url', content: `${origin}/blog/${article.slug}` },
          { property: 'og:type', content: 'article' },
          { property: 'og:image', content: image },
          { name: 'twitter:card', content: 'summary_large_image' },
          { name: 'twitter:title', content: title },
          { name: 'twitter:description', content: description },
          { name: 'twitter:image', content: image },
        ]
      : [],
  );

  if (!article) return null;

  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <Link to="/blog" className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden="true" className="size-4" />
        All articles
      </Link>
      <h1 className="mt-6 text-3xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
      {article.date && (
        <p className="mt-4 flex items-center gap-1.5 text-sm text-muted-foreground">
          <CalendarDays aria-hidden="true" className="size-4" />
          <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
        </p>
      )}
      <MarkdownView
        source={withBrand(article.body, brand)}
        className={[
          'mt-8 text-[17px] leading-8 text-foreground/90',
          '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-foreground',
          '[&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:mt-6 [&_h4]:font-semibold',
          '[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1.5',
          '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
          '[&_blockquote]:mt-4 [&_blockquote]:border-l-4 [&_blockquote]:border-primary/40 [&_blockquote]:pl-4 [&_blockquote]:italic',
          '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-sm [&_strong]:font-semibold [&_strong]:text-foreground',
        ].join(' ')}
      />
      <hr className="my-12 border-border" />
      <section className="relative overflow-hidden rounded-3xl border border-border bg-card p-8 text-center shadow-sm sm:p-10">
        <div aria-hidden="true" className="brand-gradient absolute inset-x-0 top-0 h-1.5" />
        <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Ready to Cartoonize Your Photos?</h2>
        <p className="mx-auto mt-3 max-w-md text-muted-foreground">Upload a photo and preview every style on your own picture.</p>
        <ButtonLink to="/" variant="gradient" size="lg" className="mt-6">
          Try {brand} Now!
        </ButtonLink>
      </section>
    </article>
  );
}
