/**
 * The site's CloudFront Function (viewer request), generated from the one route list (domain/site-routes.ts)
 * at synth time. The local gateway runs this same code (local/cloudfront-function.ts), so both answer alike:
 *   - a file path (last segment has a dot) goes to the bucket as is;
 *   - a prerendered page (/, /pricing, /blog, /blog/<slug> for each Markdown file...) -> <path>/index.html;
 *   - any other route of the app (/status/x, /image/x...) -> /app.html, the app shell;
 *   - everything else, including unknown article slugs -> 404 with the not-found page as body.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CONTENT_COLLECTIONS,
  type ContentCollection,
  contentPath,
  routePattern,
  SITE_ROUTES,
  type SiteRoute,
  slugFromFile,
} from '../domain/site-routes';

/** The slugs of one collection: its Markdown files on disk. */
export function contentSlugs(repoRoot: string, collection: ContentCollection): string[] {
  const dir = path.join(repoRoot, CONTENT_COLLECTIONS[collection].dir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map(slugFromFile)
    .filter((s): s is string => s !== null)
    .sort();
}

/** The paths of the routes marked with `flag`, followed each by one path per content file of its collection. */
function pathsMarked(repoRoot: string, flag: 'prerender' | 'sitemap'): string[] {
  const out: string[] = [];
  for (const r of SITE_ROUTES as readonly SiteRoute[]) {
    if (r[flag]) out.push(r.path);
    if (r.collection)
      for (const slug of contentSlugs(repoRoot, r.collection)) out.push(contentPath(r.collection, slug));
  }
  return out;
}

/** Every page the build renders to `<path>/index.html`: the prerendered routes and one page per content file. */
export const prerenderedPaths = (repoRoot: string): string[] => pathsMarked(repoRoot, 'prerender');

/** The public pages for sitemap.xml: the routes marked so and every content page. */
export const sitemapPaths = (repoRoot: string): string[] => pathsMarked(repoRoot, 'sitemap');

/** Routes the app shell answers (neither prerendered nor per-file content). */
function appRoutePatterns(): string[] {
  return SITE_ROUTES.filter((r) => !('prerender' in r) && !('collection' in r)).map((r) => routePattern(r.path));
}

export interface SiteFunctionInput {
  /** Paths answered by their prerendered `<path>/index.html`. */
  prerendered: string[];
  /** Body of the 404 answer (the built not-found page, or a minimal one before the first build). */
  notFoundHtml: string;
}

/** The key of a prerendered page's file in the bucket: '/' -> '/index.html', '/blog' -> '/blog/index.html'. */
export function pageFile(p: string): string {
  return p === '/' ? '/index.html' : `${p}/index.html`;
}

/** The app shell: the app's routes that are not prerendered (status, image pages) load it. */
export const APP_SHELL_FILE = 'app.html';

/** The not-found route, and the file the build writes as the body of every 404 (its head, the app shell). */
export const NOT_FOUND_PATH: string = SITE_ROUTES.find((r) => r.id === 'notFound')!.path;
export const NOT_FOUND_FILE = '404.html';

/** CloudFront Functions allow 10 KB of code per function. */
export const MAX_FUNCTION_BYTES = 10_240;

/** The function's source, ES5 as cloudfront-js-2.0 runs it. */
export function siteFunctionCode(input: SiteFunctionInput): string {
  const pages: Record<string, 1> = {};
  for (const p of input.prerendered) pages[p] = 1;
  const app = appRoutePatterns().map((src) => new RegExp(src).toString());
  return [
    `var PAGES=${JSON.stringify(pages)};`,
    `var APP=[${app.join(',')}];`,
    `var NOT_FOUND=${JSON.stringify(input.notFoundHtml)};`,
    'function handler(event){',
    'var r=event.request;var uri=r.uri;',
    'if(/\\.[^/]*$/.test(uri))return r;',
    "var p=uri.length>1?uri.replace(/\\/+$/,''):uri;if(p==='')p='/';",
    "if(PAGES[p]===1){r.uri=p==='/'?'/index.html':p+'/index.html';return r;}",
    `for(var i=0;i<APP.length;i++){if(APP[i].test(p)){r.uri='/${APP_SHELL_FILE}';return r;}}`,
    "return{statusCode:404,statusDescription:'Not Found',headers:{'content-type':{value:'text/html; charset=utf-8'},'cache-control':{value:'no-cache'}},body:{encoding:'text',data:NOT_FOUND}};",
    '}',
  ].join('\n');
}

/** Used before the frontend is built (synth of a checkout without frontend/dist, tests): a plain not-found page. */
export const FALLBACK_NOT_FOUND_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Page not found</title></head><body><main><h1>Oops! Page not found</h1><p><a href="/">Return to Home</a></p></main></body></html>';
