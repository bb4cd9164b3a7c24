import { LoaderCircle, Rocket } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PLACEHOLDER_IMAGE_HASH } from '../../../../domain/ownership';
import { EmailField, useEmail } from '../../components/email-field';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { previewSignup } from '../../lib/api';
import { BeforeAfter } from './before-after';
import { StepHeader } from './step-header';

/** Used when no uploaded photo passed moderation. */

export default function PreviewSignupStep({
  allowedHashes,
  email: emailValue,
  onEmailChange,
  onBack,
  onSubmitted,
}: {
  allowedHashes: string[];
  email: string;
  onEmailChange: (email: string) => void;
  onBack: () => void;
  onSubmitted: () => void;
}) {
  const email = useEmail(emailValue, onEmailChange);
  const [submitting, setSubmitting] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !email.validate()) return;
    setSubmitting(true);
    email.setServerError(null);
    try {
      await previewSignup(email.value.trim(), allowedHashes[0] ?? PLACEHOLDER_IMAGE_HASH);
      onSubmitted();
    } catch (err) {
      email.setServerError(err instanceof Error && err.message ? err.message : 'An unknown error occurred.');
      setSubmitting(false);
    }
  }

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
            <EmailField email={email} />
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
