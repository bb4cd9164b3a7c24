import { Check } from 'lucide-react';
import { cn } from '../../components/ui/cn';
import { Skeleton } from '../../components/ui/skeleton';
import type { Style } from '../../lib/api';
import { STAND_IN_LABEL, STAND_IN_NOTE, useGenerativeStandIn } from '../../lib/config';
import { SAMPLE_NOTE } from './use-moderation-and-thumbnails';

/**
 * The style tiles, each showing the preview of the visitor's photo once there is one (`thumbs`), else the style's
 * sample; `drawing` while the previews are being made.
 */
export function StyleTiles({
  styles,
  selected,
  onToggle,
  thumbs,
  drawing,
}: {
  styles: Style[] | null;
  selected: string[];
  onToggle: (id: string) => void;
  thumbs: Record<string, string>;
  drawing: boolean;
}) {
  const standIn = useGenerativeStandIn();
  const standInStyles = standIn ? (styles ?? []).filter((s) => s.aiGenerated).map((s) => s.name) : [];
  return (
    <>
      {styles === null ? (
        <ul
          className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4"
          aria-busy="true"
          aria-label="Loading styles"
        >
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: eight fixed placeholders with no identity of their own
            <li key={i}>
              <Skeleton className="aspect-square" />
              <Skeleton className="mt-2 h-4 w-2/3" />
            </li>
          ))}
        </ul>
      ) : styles.length === 0 ? (
        <p className="mt-10 rounded-2xl border border-dashed border-border p-10 text-center text-muted-foreground">
          No styles available
        </p>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
          {styles.map((style) => {
            const on = selected.includes(style.id);
            const note = SAMPLE_NOTE[thumbs[style.id] ?? ''];
            const custom = note ? undefined : thumbs[style.id];
            return (
              <li key={style.id}>
                <button
                  type="button"
                  aria-pressed={on}
                  onClick={() => onToggle(style.id)}
                  className={cn(
                    'group relative block w-full overflow-hidden rounded-2xl border-2 bg-card text-left shadow-sm transition',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                    on
                      ? 'border-primary ring-4 ring-primary/20'
                      : 'border-transparent ring-1 ring-border hover:ring-primary/40',
                  )}
                >
                  <span className="relative block aspect-square overflow-hidden bg-muted">
                    <img
                      src={custom ?? `/thumbnails/${style.id}.png`}
                      alt={`${style.name} style preview`}
                      loading="lazy"
                      className={cn(
                        'size-full object-cover transition duration-300 group-hover:scale-[1.03]',
                        drawing && !custom && 'opacity-80',
                      )}
                    />
                    {drawing && !custom && (
                      <span aria-hidden="true" className="absolute inset-0 animate-pulse bg-white/15" />
                    )}
                    {style.aiGenerated && (
                      <span
                        data-stand-in={standIn || undefined}
                        className="absolute top-2 left-2 rounded-full bg-black/65 px-2 py-0.5 text-[11px] font-semibold text-white shadow"
                      >
                        {standIn ? STAND_IN_LABEL : 'AI-generated'}
                      </span>
                    )}
                    {note && (
                      <span className="absolute inset-x-0 bottom-0 bg-black/65 px-2 py-1 text-center text-[11px] font-medium text-white">
                        {note}
                      </span>
                    )}
                    <span
                      aria-hidden="true"
                      className={cn(
                        'absolute top-2 right-2 flex size-7 items-center justify-center rounded-full border-2 shadow transition',
                        on ? 'border-white bg-primary text-white' : 'border-white/80 bg-black/25 text-transparent',
                      )}
                    >
                      <Check className="size-4" strokeWidth={3} />
                    </span>
                  </span>
                  <span className="block px-3 py-2.5">
                    <span className="block font-semibold">{style.name}</span>
                    {style.description && (
                      <span className="mt-0.5 line-clamp-2 block text-xs text-muted-foreground">
                        {style.description}
                      </span>
                    )}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {standInStyles.length > 0 && (
        <p data-stand-in-note className="mt-4 text-sm text-muted-foreground">
          {`${STAND_IN_LABEL}: ${standInStyles.join(' and ')}. ${STAND_IN_NOTE}`}
        </p>
      )}
    </>
  );
}
