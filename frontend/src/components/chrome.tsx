/** Site chrome shared by the landing shell and the app. Router-free: links are SmartLinks. */
import { useBrand } from '../lib/config';
import { LogoMark } from './icons';
import { SmartLink } from './smart-link';
import { SupportEmail } from './support-email';
import { Skeleton } from './ui/skeleton';

const FOOTER_LINKS = [
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/refund', label: 'Refund' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/blog', label: 'Blog' },
  { to: '/guides', label: 'Guides' },
];

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-card focus:px-4 focus:py-2 focus:shadow"
    >
      Skip to content
    </a>
  );
}

/** The header's links. */
const NAV = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/blog', label: 'Blog' },
] as const;

export function Header() {
  const brand = useBrand();
  return (
    <header className="sticky top-0 z-30 border-b border-border/70 bg-background/80 backdrop-blur-md">
      <div className="container-page flex h-16 items-center justify-between gap-3">
        <SmartLink to="/" className="flex min-w-0 items-center gap-2.5 rounded-lg">
          <LogoMark className="size-9 shrink-0" />
          <span className="flex min-w-0 flex-col leading-tight">
            <span className="text-lg font-extrabold tracking-tight">{brand}</span>
            <span className="truncate text-xs text-muted-foreground">AI Cartoon Photo Transformer</span>
          </span>
        </SmartLink>
        <nav aria-label="Main" className="flex shrink-0 items-center gap-1 text-sm font-medium">
          {NAV.map(({ to, label }) => (
            <SmartLink
              key={to}
              to={to}
              className="rounded-lg px-2.5 py-2 text-muted-foreground hover:bg-muted hover:text-foreground sm:px-3"
            >
              {label}
            </SmartLink>
          ))}
        </nav>
      </div>
    </header>
  );
}

export function Footer() {
  const brand = useBrand();
  return (
    <footer className="mt-auto border-t border-border bg-muted/50">
      <div className="container-page flex flex-col gap-4 py-8 text-sm sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1 text-muted-foreground">
          <p>
            © {new Date().getFullYear()} {brand}
          </p>
          <p>
            Questions or requests about your data:{' '}
            <SupportEmail className="font-medium text-foreground underline-offset-4 hover:underline" />
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                <SmartLink
                  to={l.to}
                  className="rounded text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
                >
                  {l.label}
                </SmartLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

export function PageFallback() {
  return (
    <div className="container-page space-y-4 py-12" aria-busy="true">
      <Skeleton className="h-10 w-2/3 max-w-md" />
      <Skeleton className="h-4 w-full max-w-xl" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
