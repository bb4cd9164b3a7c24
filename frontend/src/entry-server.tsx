/**
 * Server entry for the prerender (frontend/build/prerender.ts, built with `vite build --ssr`): renders one
 * route of the app to HTML with React Router's static handler (which loads the route's lazy page and runs
 * its loader, e.g. the article body) and collects the page's head.
 */
import { StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { entries } from './blog/entries';
import { defaultHead, type PageHead } from './lib/head-tags';
import { HeadCollector, HeadElements } from './lib/page-head';
import { routes } from './routes';
import { LandingShell } from './shell';

export { defaultHead, FEED_TITLE, SITE_ORIGIN } from './lib/head-tags';
export { entries };

export interface RenderedPage {
  /** The app's markup for #root. */
  html: string;
  /** <title>, meta and link tags for <head>. */
  head: string;
}

export function renderHead(head: PageHead): RenderedPage['head'] {
  return renderToStaticMarkup(<HeadElements head={head} />);
}

export async function render(path: string): Promise<RenderedPage> {
  // The landing is the router-free shell the browser shows first at '/' (main.tsx).
  if (path === '/') {
    const html = renderToString(
      <StrictMode>
        <LandingShell />
      </StrictMode>,
    );
    return { html, head: renderHead({ ...defaultHead(), path: '/' }) };
  }
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.local')));
  if (context instanceof Response)
    throw new Error(`${path} answers ${context.status} ${context.headers.get('location') ?? ''}, not a page`);
  if (context.errors) throw new Error(`${path} failed to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const collector: { head?: PageHead } = {};
  const html = renderToString(
    <StrictMode>
      <HeadCollector.Provider value={collector}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </HeadCollector.Provider>
    </StrictMode>,
  );
  if (!collector.head) throw new Error(`${path} sets no page head (usePageHead)`);
  return { html, head: renderHead(collector.head ?? defaultHead()) };
}
