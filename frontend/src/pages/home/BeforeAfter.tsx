import { ArrowRight } from 'lucide-react';
import { cn } from '../../components/ui/cn';

/** The two sides of the sample: what differs between them is data. */
const SIDES = [
  {
    src: '/thumbnails/input.jpg',
    alt: 'Original photo before the cartoon transformation',
    caption: 'Before',
    figure: 'shadow-sm',
    label: 'bg-black/60 backdrop-blur',
  },
  {
    src: '/thumbnails/pixar.png',
    alt: 'The same photo transformed into a Pixar-like 3D cartoon',
    caption: 'After',
    figure: 'shadow-lg shadow-fuchsia-500/10',
    label: 'brand-gradient',
  },
] as const;

/** The before/after sample pair (/thumbnails/input.jpg -> /thumbnails/pixar.png). */
export function BeforeAfter({ className, eager = false }: { className?: string; eager?: boolean }) {
  const loading = eager ? 'eager' : 'lazy';
  return (
    <div className={cn('relative grid grid-cols-2 gap-3 sm:gap-4', className)}>
      {SIDES.map((side) => (
        <figure
          key={side.caption}
          className={cn('relative overflow-hidden rounded-2xl border border-border bg-muted', side.figure)}
        >
          <img
            src={side.src}
            alt={side.alt}
            width={512}
            height={512}
            loading={loading}
            fetchPriority={eager ? 'high' : undefined}
            className="aspect-square w-full object-cover"
          />
          <figcaption
            className={cn(
              'absolute bottom-2 left-2 rounded-full px-2.5 py-1 text-xs font-semibold text-white',
              side.label,
            )}
          >
            {side.caption}
          </figcaption>
        </figure>
      ))}
      <span
        aria-hidden="true"
        className="absolute top-1/2 left-1/2 flex size-10 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border border-border bg-card shadow-md"
      >
        <ArrowRight className="size-5 text-primary" />
      </span>
    </div>
  );
}
