import { Footer, Header, SkipLink } from './components/chrome';
import { Landing } from './features/wizard/landing';
import { useBrand } from './lib/config';
import { useDocumentTitle } from './lib/head';

/**
 * First paint of '/': the landing page without the router. 'Get Started' (a link, like the others) loads
 * the app and continues there. The empty region mirrors the app's notification region.
 */
export function LandingShell() {
  const brand = useBrand();
  useDocumentTitle(`${brand} – AI Cartoon Photo Transformer`);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <Header />
      <main id="main" className="flex-1">
        <Landing brand={brand} />
      </main>
      <Footer />
      <section
        aria-label="Notifications"
        tabIndex={-1}
        aria-live="polite"
        aria-relevant="additions text"
        aria-atomic="false"
      />
    </div>
  );
}
