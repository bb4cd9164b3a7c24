import { Camera, ImagePlus, LoaderCircle, Trash2, Upload, X } from 'lucide-react';
import { type DragEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { MAX_FILE_BYTES, MAX_FILES } from '../../../../domain/upload-rules';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Skeleton } from '../../components/ui/Skeleton';
import { selectFiles } from '../../lib/file-select';
import { errorMessage } from '../../lib/http';
import { uploadAll } from '../../lib/upload';
import { StepHeader } from './step-header';
import type { SelectedFile } from './wizard-types';

/** Capture is offered on touch devices that have cameras (phones, tablets). */
function supportsCapture(): boolean {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return false;
  const touch = navigator.maxTouchPoints > 0 || 'ontouchstart' in window;
  const coarse = window.matchMedia?.('(pointer: coarse)').matches ?? false;
  return !!navigator.mediaDevices && touch && coarse;
}

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export default function UploadStep({
  files,
  onFilesChange,
  onUploaded,
}: {
  files: SelectedFile[];
  onFilesChange: (update: (prev: SelectedFile[]) => SelectedFile[]) => void;
  onUploaded: (hashes: string[]) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [done, setDone] = useState(0);
  const [canCapture, setCanCapture] = useState(false);
  const mounted = useRef(true);
  const hintId = useId();
  const filesRef = useRef(files);
  filesRef.current = files;

  useEffect(() => {
    setCanCapture(supportsCapture());
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const full = files.length >= MAX_FILES;

  async function addFiles(list: FileList | null) {
    if (!list || list.length === 0) return;
    const picked = Array.from(list);
    const { added, message: msg } = await selectFiles(filesRef.current, picked);
    if (!mounted.current) {
      added.forEach((f) => {
        URL.revokeObjectURL(f.previewUrl);
      });
      return;
    }
    setUploadError(null);
    setMessage(msg);
    if (added.length) onFilesChange((prev) => [...prev, ...added]);
  }

  function remove(id: string) {
    onFilesChange((prev) => {
      const gone = prev.find((f) => f.id === id);
      if (gone?.file) URL.revokeObjectURL(gone.previewUrl);
      return prev.filter((f) => f.id !== id);
    });
    setMessage(null);
  }

  function clearAll() {
    onFilesChange((prev) => {
      for (const f of prev) if (f.file) URL.revokeObjectURL(f.previewUrl);
      return [];
    });
    setMessage(null);
    setUploadError(null);
  }

  function openPicker() {
    if (!uploading) inputRef.current?.click();
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openPicker();
    }
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (!uploading) void addFiles(e.dataTransfer.files);
  }

  async function upload() {
    if (!files.length || uploading) return;
    setUploading(true);
    setUploadError(null);
    setDone(0);
    try {
      const hashes = await uploadAll(
        // Photos restored after a reload are already stored: only their hash comes back.
        files.map((f) => (f.file ? { file: f.file, type: f.type } : { hash: f.hash ?? '' })),
        (n) => mounted.current && setDone(n),
      );
      if (!mounted.current) return;
      if (hashes.filter(Boolean).length === files.length) onUploaded(hashes);
    } catch (err) {
      console.error('Upload failed', err);
      if (mounted.current) setUploadError(errorMessage(err, 'An unknown error occurred'));
    } finally {
      if (mounted.current) setUploading(false);
    }
  }

  if (uploading) {
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

  return (
    <section className="container-page py-10 sm:py-14">
      <StepHeader
        title="Upload Your Photos"
        subtitle="Clear, well-lit photos with one main subject give the best cartoons."
        step={{ current: 1, total: 3 }}
      />

      {/* biome-ignore lint/a11y/useSemanticElements: a drop zone (drag and drop handlers, block layout with a list inside) that also opens the picker; a <button> may not contain it */}
      <div
        role="button"
        tabIndex={0}
        aria-disabled={full || undefined}
        aria-describedby={hintId}
        onClick={() => !full && openPicker()}
        onKeyDown={(e) => !full && onKeyDown(e)}
        onDragEnter={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = full ? 'none' : 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center justify-center rounded-3xl border-2 border-dashed px-6 py-12 text-center transition-colors sm:py-16',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          dragging ? 'border-primary bg-accent' : 'border-input bg-muted/40 hover:border-primary/60 hover:bg-accent/50',
          full && 'cursor-not-allowed opacity-60',
        )}
      >
        <span className="brand-gradient flex size-14 items-center justify-center rounded-2xl text-white shadow-md">
          <Upload aria-hidden="true" className="size-7" />
        </span>
        <p className="mt-4 text-lg font-semibold">
          Drag &amp; drop your photos here, or{' '}
          <span className="text-primary underline underline-offset-4">click to browse</span>
        </p>
        <p id={hintId} className="mt-1.5 text-sm text-muted-foreground">
          JPG or PNG · less than {MAX_FILE_BYTES / (1024 * 1024)}MB each · up to {MAX_FILES} photos
        </p>
      </div>
      <input
        ref={inputRef}
        type="file"
        accept="image/jpeg,image/png"
        multiple
        hidden
        onChange={(e) => {
          void addFiles(e.target.files);
          e.target.value = '';
        }}
      />

      {canCapture && (
        <>
          <Button
            variant="outline"
            size="lg"
            className="mt-4 w-full sm:w-auto"
            onClick={() => cameraRef.current?.click()}
            disabled={full}
          >
            <Camera aria-hidden="true" />
            Use Camera
          </Button>
          <input
            ref={cameraRef}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            onChange={(e) => {
              void addFiles(e.target.files);
              e.target.value = '';
            }}
          />
        </>
      )}

      {message && (
        <Alert variant="destructive" className="mt-4">
          {message}
        </Alert>
      )}

      <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-muted-foreground" aria-live="polite">
          {files.length} of {MAX_FILES} files selected
        </p>
        {files.length > 0 && (
          <Button variant="ghost-destructive" size="sm" onClick={clearAll} icon={Trash2}>
            Clear All
          </Button>
        )}
      </div>

      {files.length > 0 ? (
        <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-6">
          {files.map((f) => (
            <li key={f.id} className="group relative overflow-hidden rounded-xl border border-border bg-muted">
              <img src={f.previewUrl} alt={f.name} className="aspect-square w-full object-cover" />
              <span className="absolute inset-x-0 bottom-0 truncate bg-gradient-to-t from-black/70 to-transparent px-2 pt-4 pb-1 text-[11px] text-white">
                {formatSize(f.size)}
              </span>
              <button
                type="button"
                onClick={() => remove(f.id)}
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
      )}

      {uploadError && (
        <Alert variant="destructive" className="mt-6">
          Upload failed: {uploadError}
        </Alert>
      )}

      <div className="mt-8 flex justify-end">
        <Button variant="gradient" size="lg" onClick={upload} disabled={!files.length} className="w-full sm:w-auto">
          Choose Your Styles
        </Button>
      </div>
    </section>
  );
}
