import { Home } from 'lucide-react';
import { ButtonLink } from '../components/ui/button';
import { useBrand } from '../lib/config';
import { usePageHead } from '../lib/page-head';

export default function NotFoundPage() {
  const brand = useBrand();
  usePageHead(
    {
      title: `Page not found | ${brand}`,
      description: 'The page you are looking for does not exist or has moved.',
      noindex: true,
    },
    brand,
  );
  return (
    <section className="container-page flex flex-col items-center py-24 text-center">
      <p className="brand-text text-8xl font-black tracking-tighter sm:text-9xl">404</p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Oops! Page not found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to="/" variant="primary" size="lg" className="mt-8" icon={Home}>
        Return to Home
      </ButtonLink>
    </section>
  );
}
