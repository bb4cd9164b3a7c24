import { BadgePercent, LoaderCircle, Lock } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { DISCOUNT_PERCENT, formatPrice, orderSummary } from '../../../../domain/pricing';
import { EmailField, useEmail } from '../../components/email-field';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { createCheckout } from '../../lib/api';
import { isPaymentReady, useConfig } from '../../lib/config';
import { notIncludedLine, SummaryRow } from './order-summary';
import { StepHeader } from './step-header';
import type { RefusedPhoto } from './wizard-types';

export default function OrderStep({
  uploadedCount,
  hashes,
  refused,
  styles,
  email: emailValue,
  onEmailChange,
  onBack,
}: {
  /** Photos the visitor uploaded, including refused ones. */
  uploadedCount: number;
  /** Photos in the order (those that passed moderation). */
  hashes: string[];
  refused: RefusedPhoto[];
  styles: string[];
  email: string;
  onEmailChange: (email: string) => void;
  onBack: () => void;
}) {
  const config = useConfig();
  const ready = isPaymentReady(config);
  const email = useEmail(emailValue, onEmailChange);
  const [submitting, setSubmitting] = useState(false);
  const summary = orderSummary(hashes.length, styles.length);

  // Back from the checkout page may restore this page from the back/forward cache, mid-"Processing...".
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && setSubmitting(false);
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !email.value.trim() || !email.validate()) return;
    if (!ready) {
      toast.error('Payment system is not ready. Please wait a moment.');
      return;
    }
    setSubmitting(true);
    let url: string | undefined;
    try {
      const session = await createCheckout(email.value.trim(), hashes, styles);
      url = session.url ?? undefined;
    } catch (err) {
      console.error('Checkout failed', err);
      const message = err instanceof Error ? err.message : 'An unknown error occurred';
      toast.error(`Checkout failed: ${message}`);
      setSubmitting(false);
      return;
    }
    try {
      if (!url) throw new Error('Failed to redirect to checkout.');
      // The page stays on this step (it is in the URL): Cancel or Back on the checkout page returns here.
      window.location.href = url;
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : 'Failed to redirect to checkout.');
      setSubmitting(false);
    }
  }

  const rows: Array<[string, string]> = [
    ['Images uploaded', String(uploadedCount)],
    ['Styles selected', String(summary.stylesSelected)],
    ['Total generations', String(summary.totalGenerations)],
    ['Price per generation', formatPrice(summary.pricePerGeneration)],
  ];

  return (
    <section className="container-page py-10 sm:py-14">
      <StepHeader title="Almost Done! Confirm Your Order" onBack={onBack} step={{ current: 3, total: 3 }} />

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <div className="brand-gradient flex items-center gap-3 rounded-2xl px-5 py-4 text-white shadow-md">
            <BadgePercent aria-hidden="true" className="size-6 shrink-0" />
            <p className="text-[15px] font-extrabold sm:text-lg sm:tracking-wide">
              LIMITED TIME OFFER: {DISCOUNT_PERCENT}% OFF!
            </p>
          </div>

          <Card className="p-5 sm:p-6">
            <h2 className="text-lg font-semibold">Order summary</h2>
            <dl className="mt-4 divide-y divide-border text-sm">
              {rows.map(([label, value]) => (
                <SummaryRow key={label} label={label} value={value} />
              ))}
              {refused.length > 0 && (
                <div className="py-2.5">
                  <dt className="sr-only">Not included</dt>
                  <dd className="text-destructive" data-testid="not-included">
                    {notIncludedLine(refused)}.
                  </dd>
                </div>
              )}
              <SummaryRow label="Original price" value={formatPrice(summary.originalPrice)} look="struck" />
              <SummaryRow
                label={`Discount (${summary.discountPercent}%)`}
                value={`-${formatPrice(summary.discount)}`}
                look="saving"
              />
              <SummaryRow label="Total" value={formatPrice(summary.total)} look="total" />
            </dl>
          </Card>
        </div>

        <Card className="h-fit p-5 sm:p-6 lg:col-span-2">
          <form onSubmit={submit} noValidate className="space-y-4">
            <EmailField email={email} help="We send your download link here." />
            <Button
              type="submit"
              variant="gradient"
              size="lg"
              className="w-full"
              disabled={!email.value.trim() || !ready || submitting}
            >
              {submitting ? (
                <>
                  <LoaderCircle aria-hidden="true" className="animate-spin" />
                  Processing...
                </>
              ) : (
                'Continue to Checkout'
              )}
            </Button>
            <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
              <Lock aria-hidden="true" className="size-3.5" />
              Payment is handled securely by our card payment provider.
            </p>
          </form>
        </Card>
      </div>
    </section>
  );
}
