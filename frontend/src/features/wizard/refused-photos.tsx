import { X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import type { ModerationOutcome, SelectedFile } from './wizard-types';

/** The photos that did not pass the content check, each with its reason and a Remove button. */
export function RefusedPhotos({
  refused,
  photos,
  hashes,
  onRemovePhoto,
}: {
  refused: ModerationOutcome['refused'];
  photos: SelectedFile[];
  hashes: string[];
  onRemovePhoto: (hash: string) => void;
}) {
  if (refused.length === 0) return null;
  return (
    <section
      aria-labelledby="refused-heading"
      className="mt-6 rounded-2xl border border-destructive/30 bg-destructive/5 p-4"
    >
      <h2 id="refused-heading" className="text-sm font-semibold">
        {refused.length === 1 ? '1 photo is' : `${refused.length} photos are`} not included
      </h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {refused.map((r) => {
          const photo = photos.find((p) => p.hash === r.hash);
          const name = photo?.name ?? `Photo ${hashes.indexOf(r.hash) + 1}`;
          return (
            <li
              key={r.hash}
              data-refused={r.hash}
              className="flex items-center gap-3 rounded-xl bg-card p-2 pr-3 shadow-sm ring-1 ring-border"
            >
              {photo ? (
                <img src={photo.previewUrl} alt="" className="size-14 shrink-0 rounded-lg object-cover opacity-70" />
              ) : (
                <span aria-hidden="true" className="size-14 shrink-0 rounded-lg bg-muted" />
              )}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{name}</span>
                <span className="block text-sm text-destructive">This photo {r.reason}.</span>
              </span>
              <Button
                variant="ghost-destructive"
                size="sm"
                onClick={() => onRemovePhoto(r.hash)}
                aria-label={`Remove ${name}`}
              >
                <X aria-hidden="true" />
                Remove
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
