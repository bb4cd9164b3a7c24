import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PageFallback } from '../../components/Chrome';
import { pingStatus } from '../../lib/api';
import { useBrand, useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/head';
import { Landing } from './landing';
import { keepPicked, restorePicked, sweepPicked } from './picked-files';
import {
  awaitsFile,
  clearWizard,
  EMPTY_WIZARD,
  loadWizard,
  saveWizard,
  smallPreview,
  stepFromSearch,
  stepPath,
  type WizardData,
  withRestoredFiles,
} from './wizard-state';
import type { ModerationOutcome, SelectedFile, WizardStep } from './wizard-types';

// Each step after the landing is its own chunk, so the landing page ships only what it shows.
const UploadStep = lazy(() => import('./upload-step'));
const StyleStep = lazy(() => import('./style-step'));
const PreviewSignupStep = lazy(() => import('./preview-signup-step'));
const OrderStep = lazy(() => import('./order-step'));
const ThankYouStep = lazy(() => import('./thank-you-step'));

/** Recorded outcome of the wizard's health ping (spec: outcome only recorded). */
export const health: { ok: boolean | null } = { ok: null };

export default function HomePage() {
  const brand = useBrand();
  const config = useConfig();
  const prelaunch = config.config?.paymentMode === 'prelaunch';
  useDocumentTitle(`${brand} – AI Cartoon Photo Transformer`);

  // The step is the URL's (?step=styles): Back, refresh and a return from the checkout page land on it.
  const location = useLocation();
  const navigate = useNavigate();
  const urlStep = stepFromSearch(location.search);
  const setStep = useCallback(
    (next: WizardStep, opts: { replace?: boolean } = {}) => navigate(stepPath(next), { replace: opts.replace }),
    [navigate],
  );

  // The choices live in session storage, so they outlive a reload of this tab.
  const [data, setData] = useState<WizardData>(loadWizard);
  const { hashes, styles, email, moderation } = data;
  const files = data.photos;
  useEffect(() => saveWizard(data), [data]);

  // Photos picked but not uploaded before a reload: their files come back from IndexedDB.
  const [restoring, setRestoring] = useState(() => data.photos.some(awaitsFile));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the list the page was loaded with
  useEffect(() => {
    if (!restoring) return;
    let live = true;
    void restorePicked(data.photos.filter(awaitsFile).map((p) => p.key)).then((found) => {
      if (!live) return;
      setData((d) => ({ ...d, photos: withRestoredFiles(d.photos, found) }));
      setRestoring(false);
    });
    return () => {
      live = false;
    };
  }, [restoring]);
  // Every change of the list (picked, removed, cleared, uploaded) is mirrored there; closed tabs' files are swept.
  useEffect(() => {
    if (!restoring) keepPicked(files);
  }, [files, restoring]);
  useEffect(() => void sweepPicked(), []);
  const update = useCallback((patch: Partial<WizardData>) => setData((d) => ({ ...d, ...patch })), []);
  const setFiles = useCallback(
    (change: (prev: SelectedFile[]) => SelectedFile[]) => setData((d) => ({ ...d, photos: change(d.photos) })),
    [],
  );

  // A step whose inputs are gone (a new tab, cleared storage) falls back to the first step that has them.
  let step: WizardStep = urlStep;
  if ((step === 2 || step === 3 || step === 4) && hashes.length === 0) step = 1;
  if (step === 4 && styles.length === 0) step = 2;
  if (step === 4 && prelaunch) step = 3;
  useEffect(() => {
    if (step !== urlStep) setStep(step, { replace: true });
  }, [step, urlStep, setStep]);

  useEffect(() => {
    void pingStatus().then((ok) => {
      health.ok = ok;
      if (!ok) console.warn('API health check failed');
    });
  }, []);

  // Keep the step's heading in view when the step changes (not on first paint of the landing), and clear the
  // previous step's notifications so they never sit over the next step's fields.
  const topRef = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      if (step === 0) return;
    } else {
      toast.dismiss();
    }
    topRef.current?.scrollIntoView({ block: 'start' });
    topRef.current?.focus({ preventScroll: true });
  }, [step]);

  // Object URLs of the previews are released when the page goes away.
  const filesRef = useRef(files);
  filesRef.current = files;
  useEffect(
    () => () => {
      for (const f of filesRef.current) if (f.file) URL.revokeObjectURL(f.previewUrl);
    },
    [],
  );

  const reset = useCallback(() => {
    for (const f of filesRef.current) if (f.file) URL.revokeObjectURL(f.previewUrl);
    clearWizard();
    setData(EMPTY_WIZARD);
    setStep(0);
  }, [setStep]);

  /** Uploaded: remember each photo's hash and a small preview that survives a reload. */
  const onUploaded = useCallback(
    async (uploaded: string[]) => {
      const current = filesRef.current;
      const photos = await Promise.all(
        current.map(async (f, i) => {
          const hash = uploaded[i];
          if (!f.file || f.previewUrl.startsWith('data:')) return { ...f, hash };
          const preview = await smallPreview(f.file);
          if (!preview) return { ...f, hash };
          URL.revokeObjectURL(f.previewUrl);
          return { ...f, hash, previewUrl: preview };
        }),
      );
      update({ photos, hashes: uploaded });
      setStep(2);
    },
    [update, setStep],
  );

  /** Removes a photo (a refused one, from the style step) without scanning the others again. */
  const removePhoto = useCallback((hash: string) => {
    setData((d) => {
      const rest = d.hashes.filter((h) => h !== hash);
      const m = d.moderation;
      return {
        ...d,
        photos: d.photos.filter((p) => p.hash !== hash),
        hashes: rest,
        moderation:
          m && m.key === d.hashes.join(',')
            ? {
                key: rest.join(','),
                allowed: m.allowed.filter((h) => h !== hash),
                refused: m.refused.filter((r) => r.hash !== hash),
              }
            : m,
      };
    });
  }, []);

  const known = moderation && moderation.key === hashes.join(',') ? moderation : null;
  // Checkout carries the photos that passed moderation once that is known, else all uploaded ones.
  const orderHashes = known?.allowed ?? hashes;

  let content: ReactNode;
  switch (step) {
    case 1:
      content = <UploadStep files={files} onFilesChange={setFiles} onUploaded={(h) => void onUploaded(h)} />;
      break;
    case 2:
      content = (
        <StyleStep
          hashes={hashes}
          photos={files}
          selected={styles}
          onSelectedChange={(s) => update({ styles: s })}
          moderation={moderation}
          onModeration={(m: ModerationOutcome) => update({ moderation: m })}
          onRemovePhoto={removePhoto}
          onBack={() => setStep(1)}
          onContinue={() => setStep(prelaunch ? 3 : 4)}
        />
      );
      break;
    case 3:
      content = (
        <PreviewSignupStep
          allowedHashes={known?.allowed ?? []}
          email={email}
          onEmailChange={(e) => update({ email: e })}
          onBack={() => setStep(2)}
          onSubmitted={() => setStep(6)}
        />
      );
      break;
    case 4:
      content = (
        <OrderStep
          uploadedCount={hashes.length}
          hashes={orderHashes}
          refused={known?.refused ?? []}
          styles={styles}
          email={email}
          onEmailChange={(e) => update({ email: e })}
          onBack={() => setStep(2)}
        />
      );
      break;
    case 6:
      content = <ThankYouStep onRestart={reset} />;
      break;
    default:
      content = <Landing brand={brand} />;
  }
  // Only the upload step lists photos not uploaded yet; it waits for their files rather than showing fewer.
  if (restoring && step === 1) content = <PageFallback />;

  return (
    <div ref={topRef} tabIndex={-1} className="scroll-mt-16 outline-none" data-step={step}>
      <Suspense fallback={<PageFallback />}>{content}</Suspense>
    </div>
  );
}
