import { ArrowLeft, ShieldCheck, Sparkles } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MIN_SHORT_SIDE } from '../../../../domain/image-format';
import { formatPrice, pricePerImage } from '../../../../domain/pricing';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfig } from '../../lib/config';
import { useAvailableStyles } from '../../lib/use-query';
import { RefusedPhotos } from './refused-photos';
import { StepHeader } from './step-header';
import { StyleTiles } from './style-tiles';
import { useModerationAndThumbnails } from './use-moderation-and-thumbnails';
import type { ModerationOutcome, SelectedFile } from './wizard-types';

export default function StyleStep({
  hashes,
  photos,
  selected,
  onSelectedChange,
  moderation,
  onModeration,
  onRemovePhoto,
  onBack,
  onContinue,
}: {
  hashes: string[];
  photos: SelectedFile[];
  selected: string[];
  onSelectedChange: (styles: string[]) => void;
  moderation: ModerationOutcome | null;
  onModeration: (m: ModerationOutcome) => void;
  onRemovePhoto: (hash: string) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const styles = useAvailableStyles();
  // Moderation runs once per uploaded set; removing a refused photo keeps the others' verdicts (see HomePage).
  const { phase, error, thumbError, thumbs, allowed, refused } = useModerationAndThumbnails(
    hashes,
    moderation,
    onModeration,
  );
  const prelaunch = useConfig().config?.paymentMode === 'prelaunch';
  const noneAllowed = allowed !== null && allowed.length === 0;
  const canContinue = selected.length > 0 && !(noneAllowed && !prelaunch);

  // Keep toasts above the fixed Continue bar while this step is shown.
  useEffect(() => {
    document.documentElement.style.setProperty('--toast-bottom', '88px');
    return () => {
      document.documentElement.style.removeProperty('--toast-bottom');
    };
  }, []);

  // The scan's and the previews' notices are taller than the line that follows them: the area never shrinks while
  // the step is shown, so the tiles stay put under a finger about to tap one.
  const statusRef = useRef<HTMLDivElement>(null);
  const [statusHeight, setStatusHeight] = useState(0);
  useLayoutEffect(() => {
    const height = statusRef.current?.offsetHeight ?? 0;
    if (height > statusHeight) setStatusHeight(height);
  });

  function toggle(id: string) {
    onSelectedChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);
  }

  return (
    <section className="container-page pt-10 pb-32 sm:pt-14">
      <StepHeader
        title="Choose Your Styles"
        subtitle="Pick one or more looks. Each style you choose is created for every photo you uploaded."
        onBack={onBack}
        step={{ current: 2, total: 3 }}
      />

      <div ref={statusRef} className="space-y-3" style={{ minHeight: statusHeight }} aria-live="polite">
        {phase === 'moderating' && (
          <Alert variant="progress" title="Security Scan in Progress...">
            We check every photo before it is processed.
          </Alert>
        )}
        {phase === 'thumbnails' && (
          <Alert variant="progress" title="Generating Custom Thumbnails...">
            Previews of your own photo will replace the samples in a moment.
          </Alert>
        )}
        {error && <Alert variant="destructive">{error}</Alert>}
        {thumbError && <Alert variant="destructive">{thumbError}</Alert>}
        {allowed && allowed.length > 0 && phase === 'idle' && !error && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <ShieldCheck aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
            {allowed.length} / {hashes.length} images passed moderation.
          </p>
        )}
        {noneAllowed && (
          <Alert variant="destructive" title="None of your photos passed our content check">
            <p>
              We can only turn photos that follow our Terms and are at least {MIN_SHORT_SIDE} px on their short side
              into cartoons. Please upload other photos.
            </p>
            <Button variant="outline" size="sm" className="mt-3" onClick={onBack} icon={ArrowLeft}>
              Back to upload
            </Button>
          </Alert>
        )}
      </div>

      <RefusedPhotos refused={refused} photos={photos} hashes={hashes} onRemovePhoto={onRemovePhoto} />

      <StyleTiles
        styles={styles}
        selected={selected}
        onToggle={toggle}
        thumbs={thumbs}
        drawing={phase === 'thumbnails'}
      />

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-border bg-background/90 backdrop-blur-md">
        <div className="container-page flex items-center justify-between gap-4 py-3">
          <p className="text-sm text-muted-foreground">
            <span className="font-semibold text-foreground">{selected.length}</span>{' '}
            {selected.length === 1 ? 'style' : 'styles'} selected
            {selected.length > 0 && !prelaunch && (
              <span className="hidden sm:inline"> · {formatPrice(pricePerImage(selected.length))} per image</span>
            )}
          </p>
          <Button variant="gradient" size="lg" disabled={!canContinue} onClick={onContinue} icon={Sparkles}>
            Continue
          </Button>
        </div>
      </div>
    </section>
  );
}
