import { LoaderCircle, Rocket } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { validateEmail } from '../../../../domain/email';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { Input } from '../../components/ui/Input';
import { previewSignup } from '../../lib/api';
import { BeforeAfter } from './BeforeAfter';
import { StepHeader } from './StepHeader';

/** Used when no uploaded photo passed moderation. */
export const PLACEHOLDER_IMAGE_HASH = '0000000000000000000000000000000000000000000000000000000000000000';

export default function PreviewSignupStep({
  allowedHashes,
  onBack,
  onSubmitted,
}: {
  allowedHashes: string[];
  onBack: () => void;
  onSubmitted: () => void;
}) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const emailId = useId();
  const errorId = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    const problem = validateEmail(email);
    setError(problem);
    if (problem) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await previewSignup(email.trim(), allowedHashes[0] ?? PLACEHOLDER_IMAGE_HASH);
      onSubmitted();
    } catch (err) {
      setServerError(err instanceof Error && err.message ? err.message : 'An unknown error occurred.');
      setSubmitting(false);
    }
  }

  const shown = error ?? serverError;

  return (
    <section className="container-page py-10 sm:py-14">
      <StepHeader title="Be the First to Zap Your Photos!" onBack={onBack} />
      <div className="grid items-start gap-8 lg:grid-cols-2 lg:gap-12">
        <BeforeAfter />
        <Card className="p-6 sm:p-8">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
            <Rocket aria-hidden="true" className="size-6" />
          </span>
          <p className="mt-4 text-lg font-semibold">Payments are not live yet.</p>
          <p className="mt-1 text-muted-foreground">
            Leave your e-mail and we will let you know the moment you can turn your photos into cartoons.
          </p>
          <form onSubmit={submit} noValidate className="mt-6 space-y-3">
            <label htmlFor={emailId} className="text-sm font-semibold">
              Email address
            </label>
            <Input
              id={emailId}
              type="email"
              required
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
              value={email}
              aria-invalid={shown ? true : undefined}
              aria-describedby={shown ? errorId : undefined}
              onChange={(e) => {
                const value = e.target.value;
                setEmail(value);
                if (error) setError(validateEmail(value));
                if (serverError) setServerError(null);
              }}
            />
            {shown && (
              <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
                {shown}
              </p>
            )}
            <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={submitting}>
              {submitting ? (
                <>
                  <LoaderCircle aria-hidden="true" className="animate-spin" />
                  Submitting...
                </>
              ) : (
                'Notify Me!'
              )}
            </Button>
          </form>
        </Card>
      </div>
    </section>
  );
}
