/** The blog's articles and the guides, bundled at build time (the blog makes no network calls). */

import { bodies, entries } from 'virtual:content';
import type { ContentCollection } from '../../../domain/site-routes';
import type { ContentEntry } from './content';

export { entries };

export const articles: ContentEntry[] = entries.filter((e) => e.collection === 'blog');
export const guides: ContentEntry[] = entries.filter((e) => e.collection === 'guides');

export function findEntry(collection: ContentCollection, slug: string): ContentEntry | undefined {
  return entries.find((e) => e.collection === collection && e.slug === slug);
}

/** The entry's body as HTML (its own chunk, made from the Markdown at build time). */
export async function loadBody(entry: ContentEntry): Promise<string> {
  const load = bodies[`${entry.collection}/${entry.slug}`];
  if (!load) throw new Error(`No body for ${entry.collection}/${entry.slug}`);
  return (await load()).default;
}
