import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PageFallback } from '../../components/chrome';
import { pingStatus } from '../../lib/api';
import { useBrand, useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/head';
import { Landing } from './landing';
import { useWizardData } from './use-wizard-data';
import { stepFromSearch, stepPath } from './wizard-state';
import type { ModerationOutcome, WizardStep } from './wizard-types';

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
  const { data, restoring, update, setFiles, clear, onUploaded, removePhoto } = useWizardData();
  const { hashes, styles, email, moderation } = data;
  const files = data.photos;
  const reset = () => {
    clear();
    setStep(0);
  };

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

  const known = moderation && moderation.key === hashes.join(',') ? moderation : null;
  // Checkout carries the photos that passed moderation once that is known, else all uploaded ones.
  const orderHashes = known?.allowed ?? hashes;

  let content: ReactNode;
  switch (step) {
    case 1:
      content = (
        <UploadStep
          files={files}
          onFilesChange={setFiles}
          onUploaded={(h) => void onUploaded(h).then(() => setStep(2))}
        />
      );
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
