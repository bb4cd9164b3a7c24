import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { Layout } from './components/Layout';
import { ErrorPage } from './pages/ErrorPage';
import HomePage from './pages/home/HomePage';

// Route-level code splitting: only the layout and the home wizard's landing ship with the entry chunk.
const PricingPage = lazy(() => import('./pages/PricingPage'));
const TermsPage = lazy(() => import('./pages/legal/TermsPage'));
const PrivacyPage = lazy(() => import('./pages/legal/PrivacyPage'));
const RefundPage = lazy(() => import('./pages/legal/RefundPage'));
const StatusPage = lazy(() => import('./pages/StatusPage'));
const ImagePage = lazy(() => import('./pages/ImagePage'));
const GalleryPage = lazy(() => import('./pages/GalleryPage'));
const BlogIndexPage = lazy(() => import('./pages/BlogIndexPage'));
const BlogArticlePage = lazy(() => import('./pages/BlogArticlePage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

export const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage inline />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'pricing', element: <PricingPage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: 'refund', element: <RefundPage /> },
          { path: 'status/:id?', element: <StatusPage /> },
          { path: 'image/:hash/:style', element: <ImagePage /> },
          { path: 'image/:hash', element: <GalleryPage /> },
          { path: 'blog', element: <BlogIndexPage /> },
          { path: 'blog/:slug', element: <BlogArticlePage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
