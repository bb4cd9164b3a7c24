import { CreditCard, ImageUp, Mail, Palette, Rocket, ShieldCheck, Sparkles } from 'lucide-react';
import { formatPrice, PRICE_TIERS } from '../../../../domain/pricing';
import { SmartLink } from '../../components/smart-link';
import { ButtonLink } from '../../components/ui/button';
import { useConfig } from '../../lib/config';
import { BeforeAfter } from './before-after';
import { stepPath } from './wizard-state';

const TAGLINE =
  'Transform your photos into cartoon-style masterpieces with AI. One click to create unique, shareable art in seconds.';

const STEPS = [
  {
    icon: ImageUp,
    title: 'Upload your photos',
    text: 'Add JPG or PNG photos, up to 10 MB each and up to 50 at a time.',
  },
  {
    icon: Palette,
    title: 'Pick your styles',
    text: 'Preview every look on your own photo, from 3D and anime to watercolor and pixel art.',
  },
  {
    icon: Mail,
    title: 'Get your artwork',
    text: 'Pay only for the images you order and receive a download link by e-mail.',
  },
];

/** Pre-launch: ordering is not open yet; the third step says what happens instead. */
const PRELAUNCH_LAST_STEP = {
  icon: Mail,
  title: 'Hear when we launch',
  text: 'Ordering is not open yet. Leave your e-mail and we tell you when you can order your images.',
};

export function Landing({ brand }: { brand: string }) {
  // Unknown until /api/config answers (and in prerendered HTML): then no payment promise either way.
  const mode = useConfig().config?.paymentMode;
  const prelaunch = mode === 'prelaunch';
  const steps = prelaunch ? [...STEPS.slice(0, 2), PRELAUNCH_LAST_STEP] : STEPS;
  return (
    <>
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
          <div className="brand-gradient absolute -top-40 left-1/2 h-[28rem] w-[56rem] -translate-x-1/2 rounded-full opacity-15 blur-3xl dark:opacity-20" />
        </div>
        <div className="container-page grid items-center gap-10 py-12 sm:py-16 lg:grid-cols-2 lg:gap-16 lg:py-24">
          <div className="text-center lg:text-left">
            <p className="inline-flex items-center gap-1.5 rounded-full border border-border bg-card/70 px-3 py-1 text-xs font-semibold text-muted-foreground shadow-sm">
              <Sparkles aria-hidden="true" className="size-3.5 text-brand-2" />
              Your photo, redrawn by AI
            </p>
            <h1 className="mt-5 text-5xl font-black tracking-tight sm:text-6xl lg:text-7xl">
              <span className="brand-text">{brand}</span>
            </h1>
            <p className="mx-auto mt-5 max-w-xl text-lg leading-relaxed text-muted-foreground sm:text-xl lg:mx-0">
              {TAGLINE}
            </p>
            <div className="mt-8 flex flex-col items-center gap-4 sm:flex-row sm:justify-center lg:justify-start">
              {/* A real link, so a tap before the script runs still opens the upload step (a full load of it); the
                  script makes it an in-page hand-over. It starts a task, so it is announced as a button. */}
              <ButtonLink
                to={stepPath(1)}
                role="button"
                variant="gradient"
                size="lg"
                onKeyDown={(e) => {
                  // A button answers Space as well as Enter.
                  if (e.key !== ' ') return;
                  e.preventDefault();
                  e.currentTarget.click();
                }}
                className="w-full px-10 sm:w-auto"
              >
                Get Started
              </ButtonLink>
            </div>
            <ul className="mt-8 flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-muted-foreground lg:justify-start">
              <li className="flex items-center gap-1.5">
                <ShieldCheck aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
                Every upload is safety-checked
              </li>
              {mode && !prelaunch && (
                <li className="flex items-center gap-1.5">
                  <CreditCard aria-hidden="true" className="size-4 text-primary" />
                  Secure card checkout
                </li>
              )}
              {prelaunch && (
                <li className="flex items-center gap-1.5">
                  <Rocket aria-hidden="true" className="size-4 text-primary" />
                  Pre-launch: try the styles on your photos now, ordering opens soon
                </li>
              )}
            </ul>
          </div>
          <BeforeAfter eager className="mx-auto w-full max-w-xl" />
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="border-t border-border bg-muted/40">
        <div className="container-page py-14 sm:py-20">
          <h2 id="how-it-works" className="text-center text-2xl font-bold tracking-tight sm:text-3xl">
            How it works
          </h2>
          <ol className="mt-10 grid gap-5 sm:grid-cols-3">
            {steps.map((s, i) => (
              <li key={s.title} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
                <div className="flex items-center gap-3">
                  <span className="flex size-10 items-center justify-center rounded-xl bg-accent text-accent-foreground">
                    <s.icon aria-hidden="true" className="size-5" />
                  </span>
                  <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
                </div>
                <h3 className="mt-4 text-lg font-semibold">{s.title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{s.text}</p>
              </li>
            ))}
          </ol>
          <p className="mt-8 text-center text-sm text-muted-foreground">
            Prices start at {formatPrice(Math.min(...PRICE_TIERS.map((t) => t.cents)))} per image.{' '}
            <SmartLink to="/pricing" className="font-semibold text-primary underline-offset-4 hover:underline">
              See pricing
            </SmartLink>
          </p>
        </div>
      </section>
    </>
  );
}
