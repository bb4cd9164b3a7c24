import type { ReactNode } from 'react';

/** Standard page frame: heading block and content width. */
export function PageShell({
  title,
  intro,
  children,
  narrow = false,
}: {
  title: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
}) {
  return (
    <div className={narrow ? 'mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14' : 'container-page py-10 sm:py-14'}>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {intro && <div className="mt-3 text-lg text-muted-foreground">{intro}</div>}
      <div className="mt-8">{children}</div>
    </div>
  );
}
