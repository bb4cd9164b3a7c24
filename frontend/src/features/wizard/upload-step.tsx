import { Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { MAX_FILES } from '../../../../domain/upload-rules';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { selectFiles } from '../../lib/file-select';
import { errorMessage } from '../../lib/http';
import { uploadAll } from '../../lib/upload';
import { DropZone } from './drop-zone';
import { PickedPhotos, UploadProgress } from './picked-photos';
import { StepHeader } from './step-header';
import type { SelectedFile } from './wizard-types';

export default function UploadStep({
  files,
  onFilesChange,
  onUploaded,
}: {
  files: SelectedFile[];
  onFilesChange: (update: (prev: SelectedFile[]) => SelectedFile[]) => void;
  onUploaded: (hashes: string[]) => void;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [done, setDone] = useState(0);
  const mounted = useRef(true);
  const filesRef = useRef(files);
  filesRef.current = files;

  useEffect(() => {
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

  if (uploading) return <UploadProgress files={files} done={done} />;

  return (
    <section className="container-page py-10 sm:py-14">
      <StepHeader
        title="Upload Your Photos"
        subtitle="Clear, well-lit photos with one main subject give the best cartoons."
        step={{ current: 1, total: 3 }}
      />

      <DropZone full={full} onFiles={(list) => !uploading && void addFiles(list)} />

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

      <PickedPhotos files={files} onRemove={remove} />

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
