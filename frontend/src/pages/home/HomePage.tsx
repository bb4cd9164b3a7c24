import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { PageFallback } from '../../components/Chrome';
import { pingStatus } from '../../lib/api';
import { takeInitialStep } from '../../lib/boot';
import { useBrand, useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/head';
import { Landing } from './Landing';
import type { ModerationOutcome, SelectedFile, WizardStep } from './wizard-types';

// Each step after the landing is its own chunk, so the landing page ships only what it shows.
const UploadStep = lazy(() => import('./UploadStep'));
const StyleStep = lazy(() => import('./StyleStep'));
const PreviewSignupStep = lazy(() => import('./PreviewSignupStep'));
const OrderStep = lazy(() => import('./OrderStep'));
const ThankYouStep = lazy(() => import('./ThankYouStep'));

/** Recorded outcome of the wizard's health ping (spec: outcome only recorded). */
export const health: { ok: boolean | null } = { ok: null };

export default function HomePage() {
  const brand = useBrand();
  const config = useConfig();
  const prelaunch = config.config?.paymentMode === 'prelaunch';
  useDocumentTitle(`${brand} – AI Cartoon Photo Transformer`);

  const [step, setStep] = useState<WizardStep>(() => takeInitialStep() as WizardStep);
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const [hashes, setHashes] = useState<string[]>([]);
  const [styles, setStyles] = useState<string[]>([]);
  const [moderation, setModeration] = useState<ModerationOutcome | null>(null);
  const topRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void pingStatus().then((ok) => {
      health.ok = ok;
      if (!ok) console.warn('API health check failed');
    });
  }, []);

  // Keep the step's heading in view when the step changes (but not on first paint, unless the landing shell
  // handed over on a step: its 'Get Started' button is gone, so focus moves to the step instead of the body).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      if (step === 0) return;
    }
    topRef.current?.scrollIntoView({ block: 'start' });
    topRef.current?.focus({ preventScroll: true });
  }, [step]);

  // If the payment mode turns out to be pre-launch while on the order step, show the sign-up instead.
  useEffect(() => {
    if (step === 4 && prelaunch) setStep(3);
  }, [step, prelaunch]);

  // Object URLs of the previews are released when the page goes away.
  const filesRef = useRef(files);
  filesRef.current = files;
  useEffect(() => () => filesRef.current.forEach((f) => {
        URL.revokeObjectURL(f.previewUrl);
      }), []);

  const reset = useCallback(() => {
    setFiles((prev) => {
      prev.forEach((f) => {
        URL.revokeObjectURL(f.previewUrl);
      });
      return [];
    });
    setHashes([]);
    setStyles([]);
    setModeration(null);
    setStep(0);
  }, []);

  const allowed = moderation && moderation.key === hashes.join(',') ? moderation.allowed : null;
  // Checkout carries the photos that passed moderation once that is known, else all uploaded ones.
  const orderHashes = allowed ?? hashes;

  let content: ReactNode;
  switch (step) {
    case 1:
      content = (
        <UploadStep
          files={files}
          onFilesChange={setFiles}
          onUploaded={(h) => {
            setHashes(h);
            setStep(2);
          }}
        />
      );
      break;
    case 2:
      content = (
        <StyleStep
          hashes={hashes}
          selected={styles}
          onSelectedChange={setStyles}
          moderation={moderation}
          onModeration={setModeration}
          onBack={() => setStep(1)}
          onContinue={() => setStep(prelaunch ? 3 : 4)}
        />
      );
      break;
    case 3:
      content = <PreviewSignupStep allowedHashes={allowed ?? []} onBack={() => setStep(2)} onSubmitted={() => setStep(6)} />;
      break;
    case 4:
      content = (
        <OrderStep
          hashes={orderHashes}
          styles={styles}
          onBack={() => setStep(2)}
          onRedirecting={() => setStep(5)}
        />
      );
      break;
    case 6:
      content = <ThankYouStep onRestart={reset} />;
      break;
    default:
      // 0 (landing) and 5 (e-mail submitted, redirecting to checkout) show the landing.
      content = <Landing brand={brand} onStart={() => setStep(1)} />;
  }

  return (
    <div ref={topRef} tabIndex={-1} className="scroll-mt-16 outline-none" data-step={step}>
      <Suspense fallback={<PageFallback />}>{content}</Suspense>
    </div>
  );
}
