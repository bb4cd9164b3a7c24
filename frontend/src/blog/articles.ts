/** The blog's articles, bundled at build time (the blog makes no network calls). */
import { type Article, parseArticle, sortArticles } from './parse';

const files = import.meta.glob<string>('./posts/*.{md,mdx}', { query: '?raw', import: 'default', eager: true });

export const articles: Article[] = sortArticles(Object.entries(files).map(([path, raw]) => parseArticle(path, raw)));

export function findArticle(slug: string): Article | undefined {
  return articles.find((a) => a.slug === slug);
}
