import { ArrowRight } from 'lucide-react';
import { cn } from '../../components/ui/cn';
import { landingSample } from './landing-sample';

const sample = landingSample();

/** The two sides of the sample, with who drew the "after" image (landing-sample.ts): what differs is data. */
const SIDES = [
  { ...sample.before, tag: 'Before', frame: 'shadow-sm', label: 'bg-black/60 backdrop-blur' },
  { ...sample.after, tag: sample.tag, frame: 'shadow-lg shadow-fuchsia-500/10', label: 'brand-gradient' },
];

/** The before/after sample pair and its note. */
export function BeforeAfter({ className, eager = false }: { className?: string; eager?: boolean }) {
  const loading = eager ? 'eager' : 'lazy';
  return (
    <figure className={className}>
      <div className="relative grid grid-cols-2 gap-3 sm:gap-4">
        {SIDES.map((side) => (
          <div
            key={side.tag}
            className={cn('relative overflow-hidden rounded-2xl border border-border bg-muted', side.frame)}
          >
            <img
              src={side.src}
              srcSet={side.srcSet}
              // Half the sample's max-w-xl beside the copy; half the screen on phones.
              sizes="(min-width: 36rem) 282px, calc(50vw - 22px)"
              alt={side.alt}
              width={side.width}
              height={side.height}
              loading={loading}
              fetchPriority={eager ? 'high' : undefined}
              className="aspect-square w-full object-cover"
            />
            <span
              className={cn(
                'absolute bottom-2 left-2 rounded-full px-2.5 py-1 text-xs font-semibold text-white',
                side.label,
              )}
            >
              {side.tag}
            </span>
          </div>
        ))}
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
