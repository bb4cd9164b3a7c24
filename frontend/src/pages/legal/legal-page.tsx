import type { ReactNode } from 'react';
import { SITE_ROUTES, type SiteRouteId } from '../../../../domain/site-routes';
import { useBrand } from '../../lib/config';
import { usePageHead } from '../../lib/page-head';

export const LAST_UPDATED = 'June 1, 2025';

/** Each legal page's heading and search description; its path is its site route's (domain/site-routes.ts). */
const LEGAL_PAGES = {
  terms: {
    title: 'Terms of Service',
    description: (brand: string) =>
      `The terms for using ${brand}: what the service does, what you may upload, payment and your images.`,
  },
  privacy: {
    title: 'Privacy Policy',
    description: (brand: string) =>
      `What ${brand} collects (your photos, your e-mail address, usage data), why, and your rights over it.`,
  },
  refund: {
    title: 'Refund Policy',
    description: (brand: string) =>
      `When ${brand} refunds an order: images that fail are refunded automatically; other technical problems within 7 days.`,
  },
} satisfies Partial<Record<SiteRouteId, { title: string; description: (brand: string) => string }>>;

/** Readable layout for the legal pages. */
export function LegalPage({ id, children }: { id: keyof typeof LEGAL_PAGES; children: ReactNode }) {
  const brand = useBrand();
  const { title, description } = LEGAL_PAGES[id];
  const path = SITE_ROUTES.find((r) => r.id === id)?.path;
  usePageHead({ title: `${title} | ${brand}`, description: description(brand), path }, brand);
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">Last updated: {LAST_UPDATED}</p>
      <div className="mt-8 space-y-8 text-[15px] leading-7 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_li]:mt-1.5 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4">
        {children}
      </div>
    </article>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
