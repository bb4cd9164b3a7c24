import { ImagePlus, LoaderCircle, X } from 'lucide-react';
import { Skeleton } from '../../components/ui/skeleton';
import type { SelectedFile } from './wizard-types';

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The photos picked so far, each with its size and a Remove button. */
export function PickedPhotos({ files, onRemove }: { files: SelectedFile[]; onRemove: (id: string) => void }) {
  return files.length > 0 ? (
    <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-6">
      {files.map((f) => (
        <li key={f.id} className="group relative overflow-hidden rounded-xl border border-border bg-muted">
          <img src={f.previewUrl} alt={f.name} className="aspect-square w-full object-cover" />
          <span className="absolute inset-x-0 bottom-0 truncate bg-gradient-to-t from-black/70 to-transparent px-2 pt-4 pb-1 text-[11px] text-white">
            {formatSize(f.size)}
          </span>
          <button
            type="button"
            onClick={() => onRemove(f.id)}
            aria-label={`Remove ${f.name}`}
            className="absolute top-1.5 right-1.5 flex size-8 items-center justify-center rounded-full bg-black/65 text-white shadow hover:bg-black/85 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </li>
      ))}
    </ul>
  ) : (
    <div className="mt-4 flex items-center gap-3 rounded-xl border border-dashed border-border px-4 py-5 text-sm text-muted-foreground">
      <ImagePlus aria-hidden="true" className="size-5 shrink-0" />
      Your selected photos will appear here.
    </div>
  );
}

/** What the step shows while its photos upload. */
export function UploadProgress({ files, done }: { files: SelectedFile[]; done: number }) {
  return (
    <section className="container-page py-10 sm:py-14" aria-busy="true">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Uploading Photos</h1>
      <p className="mt-2 flex items-center gap-2 text-muted-foreground" role="status">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        {done} of {files.length} uploaded
      </p>
      <div className="mt-8 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-6">
        {files.slice(0, 12).map((f) => (
          <Skeleton key={f.id} className="aspect-square" />
        ))}
      </div>
    </section>
  );
}
