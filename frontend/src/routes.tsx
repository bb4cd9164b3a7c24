import type { RouteObject } from 'react-router';
import { SITE_ROUTES, type SiteRouteId } from '../../domain/site-routes';
import { Layout } from './components/layout';
import { ErrorPage } from './pages/error-page';

type Page = Pick<RouteObject, 'element' | 'lazy'>;

// Route-level code splitting: only the layout ships with the app chunk, every page (the wizard too) is its own. `lazy`
// (not React.lazy) lets the router load a page, and its data, before showing it: the prerender renders
// complete pages and the browser replaces the prerendered HTML only once the page is ready.
const PAGES: Record<SiteRouteId, Page> = {
  home: { lazy: () => import('./features/wizard/home-page').then((m) => ({ Component: m.default })) },
  pricing: { lazy: () => import('./pages/pricing/pricing-page').then((m) => ({ Component: m.default })) },
  terms: { lazy: () => import('./pages/legal/terms-page').then((m) => ({ Component: m.default })) },
  privacy: { lazy: () => import('./pages/legal/privacy-page').then((m) => ({ Component: m.default })) },
  refund: { lazy: () => import('./pages/legal/refund-page').then((m) => ({ Component: m.default })) },
  status: { lazy: () => import('./pages/status/status-page').then((m) => ({ Component: m.default })) },
  forget: { lazy: () => import('./pages/forget-page').then((m) => ({ Component: m.default })) },
  image: { lazy: () => import('./pages/image-page').then((m) => ({ Component: m.default })) },
  gallery: { lazy: () => import('./pages/gallery-page').then((m) => ({ Component: m.default })) },
  blog: { lazy: () => import('./pages/content-index-page').then((m) => ({ Component: m.BlogIndexPage })) },
  article: {
    lazy: () => import('./pages/article-page').then((m) => ({ Component: m.BlogArticlePage, loader: m.blogLoader })),
  },
  guides: { lazy: () => import('./pages/content-index-page').then((m) => ({ Component: m.GuidesIndexPage })) },
  guide: {
    lazy: () => import('./pages/article-page').then((m) => ({ Component: m.GuidePage, loader: m.guideLoader })),
  },
  notFound: { lazy: () => import('./pages/not-found-page').then((m) => ({ Component: m.default })) },
};

/** The app's routes: the site route list (domain/site-routes.ts) with a page each, and not-found for the rest. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage inline />,
        children: [
          ...SITE_ROUTES.map(
            (r): RouteObject =>
              r.path === '/' ? { index: true, ...PAGES[r.id] } : { path: r.path.slice(1), ...PAGES[r.id] },
          ),
          { path: '*', ...PAGES.notFound },
        ],
      },
    ],
  },
];
