import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes';

export const router = createBrowserRouter(routes);

/** Resolves once the first page's code and data are loaded, so the first render replaces prerendered HTML with the same page. */
export function routerReady(): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

export function App() {
  return <RouterProvider router={router} />;
}
