import { ArrowRight } from 'lucide-react';
import { landingSample } from './landing-sample';

const sample = landingSample();

/** The before/after sample pair, with who drew the "after" image (landing-sample.ts). */
export function BeforeAfter({ className, eager = false }: { className?: string; eager?: boolean }) {
  const loading = eager ? 'eager' : 'lazy';
  return (
    <figure className={className}>
      <div className="relative grid grid-cols-2 gap-3 sm:gap-4">
        <div className="relative overflow-hidden rounded-2xl border border-border bg-muted shadow-sm">
          <img
            src={sample.before.src}
            alt={sample.before.alt}
            width={sample.before.width}
            height={sample.before.height}
            loading={loading}
            fetchPriority={eager ? 'high' : undefined}
            className="aspect-square w-full object-cover"
          />
          <span className="absolute bottom-2 left-2 rounded-full bg-black/60 px-2.5 py-1 text-xs font-semibold text-white backdrop-blur">
            Before
          </span>
        </div>
        <div className="relative overflow-hidden rounded-2xl border border-border bg-muted shadow-lg shadow-fuchsia-500/10">
          <img
            src={sample.after.src}
            alt={sample.after.alt}
            width={sample.after.width}
            height={sample.after.height}
            loading={loading}
            fetchPriority={eager ? 'high' : undefined}
            className="aspect-square w-full object-cover"
          />
          <span className="brand-gradient absolute bottom-2 left-2 rounded-full px-2.5 py-1 text-xs font-semibold text-white">
            {sample.tag}
          </span>
        </div>
        <span
          aria-hidden="true"
          className="absolute top-1/2 left-1/2 flex size-10 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border border-border bg-card shadow-md"
        >
          <ArrowRight className="size-5 text-primary" />
        </span>
      </div>
      <figcaption data-sample-note className="mt-3 text-center text-sm text-muted-foreground">
        {sample.note}
      </figcaption>
    </figure>
  );
}
