import { Suspense, useEffect } from 'react';
import { Link, Outlet, ScrollRestoration } from 'react-router';
import { Toaster } from 'sonner';
import { keepToastsClearOfFields } from '../lib/toast-clearance';
import { Footer, Header, PageFallback, SkipLink } from './chrome';
import { LinkImplContext } from './smart-link';

/** App layout: chrome, routed content, and the notification region (bottom-right, system theme). */
export function Layout() {
  useEffect(keepToastsClearOfFields, []);
  return (
    <LinkImplContext.Provider value={Link}>
      <div className="flex min-h-dvh flex-col">
        <SkipLink />
        <Header />
        <main id="main" className="flex-1">
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
        <Toaster
          position="bottom-right"
          theme="system"
          customAriaLabel="Notifications"
          richColors
          closeButton
          // Screens with a fixed bottom bar raise --toast-bottom so toasts never cover it.
          offset={{ bottom: 'var(--toast-bottom, 24px)' }}
          mobileOffset={{ bottom: 'var(--toast-bottom, 16px)' }}
        />
        <ScrollRestoration />
      </div>
    </LinkImplContext.Provider>
  );
}
