import { ArrowRight } from 'lucide-react';
import { cn } from '../../components/ui/cn';

/** The before/after sample pair (/thumbnails/input.jpg -> /thumbnails/pixar.png). */
export function BeforeAfter({ className, eager = false }: { className?: string; eager?: boolean }) {
  const loading = eager ? 'eager' : 'lazy';
  return (
    <div className={cn('relative grid grid-cols-2 gap-3 sm:gap-4', className)}>
      <figure className="relative overflow-hidden rounded-2xl border border-border bg-muted shadow-sm">
        <img
          src="/thumbnails/input.jpg"
          // biome-ignore lint/a11y/noRedundantAlt: the photo is the subject; "photo" says what is shown, not that it is an image
          alt="Original photo before the cartoon transformation"
          width={512}
          height={512}
          loading={loading}
          fetchPriority={eager ? 'high' : undefined}
          className="aspect-square w-full object-cover"
        />
        <figcaption className="absolute bottom-2 left-2 rounded-full bg-black/60 px-2.5 py-1 text-xs font-semibold text-white backdrop-blur">
          Before
        </figcaption>
      </figure>
      <figure className="relative overflow-hidden rounded-2xl border border-border bg-muted shadow-lg shadow-fuchsia-500/10">
        <img
          src="/thumbnails/pixar.png"
          // biome-ignore lint/a11y/noRedundantAlt: the photo is the subject; "photo" says what is shown, not that it is an image
          alt="The same photo transformed into a Pixar-like 3D cartoon"
          width={512}
          height={512}
          loading={loading}
          fetchPriority={eager ? 'high' : undefined}
          className="aspect-square w-full object-cover"
        />
        <figcaption className="brand-gradient absolute bottom-2 left-2 rounded-full px-2.5 py-1 text-xs font-semibold text-white">
          After
        </figcaption>
      </figure>
      <span
        aria-hidden="true"
        className="absolute top-1/2 left-1/2 flex size-10 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border border-border bg-card shadow-md"
      >
        <ArrowRight className="size-5 text-primary" />
      </span>
    </div>
  );
}
