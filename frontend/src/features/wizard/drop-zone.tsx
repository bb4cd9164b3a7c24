import { Camera, Upload } from 'lucide-react';
import { type DragEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { MAX_FILE_BYTES, MAX_FILES } from '../../../../domain/upload-rules';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';

/** Capture is offered on touch devices that have cameras (phones, tablets). */
function supportsCapture(): boolean {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return false;
  const touch = navigator.maxTouchPoints > 0 || 'ontouchstart' in window;
  const coarse = window.matchMedia?.('(pointer: coarse)').matches ?? false;
  return !!navigator.mediaDevices && touch && coarse;
}

/** Where photos are dropped or picked (keyboard: Enter or Space opens the picker), and the camera on phones. */
export function DropZone({ full, onFiles }: { full: boolean; onFiles: (list: FileList | null) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [canCapture, setCanCapture] = useState(false);
  const hintId = useId();
  useEffect(() => setCanCapture(supportsCapture()), []);

  function openPicker() {
    inputRef.current?.click();
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
    onFiles(e.dataTransfer.files);
  }

  return (
    <>
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
          onFiles(e.target.files);
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
              onFiles(e.target.files);
              e.target.value = '';
            }}
          />
        </>
      )}
    </>
  );
}
