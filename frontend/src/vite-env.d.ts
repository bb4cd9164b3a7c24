/// <reference types="vite/client" />

/** The site's public origin for canonical and social URLs, fixed at build time (PUBLIC_SITE_URL; frontend/build/site-url.ts). */
declare const __SITE_URL__: string;

/** Front matter of every Markdown page and a lazy loader of each body (frontend/build/content.ts). */
declare module 'virtual:content' {
  import type { ContentEntry } from './blog/content';
  export const entries: ContentEntry[];
  export const bodies: Record<string, () => Promise<{ default: string }>>;
}
