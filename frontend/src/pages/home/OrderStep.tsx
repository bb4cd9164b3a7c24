import { BadgePercent, Lock, LoaderCircle } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { formatPrice, orderSummary } from '../../../../domain/pricing';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { Input } from '../../components/ui/Input';
import { createCheckout } from '../../lib/api';
import { isPaymentReady, useConfig } from '../../lib/config';
import { StepHeader } from './StepHeader';

export default function OrderStep({
  hashes,
  styles,
  onBack,
  onRedirecting,
}: {
  hashes: string[];
  styles: string[];
  onBack: () => void;
  onRedirecting: () => void;
}) {
  const config = useConfig();
  const ready = isPaymentReady(config);
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const emailId = useId();
  const summary = orderSummary(hashes.length, styles.length);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !email.trim()) return;
    if (!ready) {
      toast.error('Payment system is not ready. Please wait a moment.');
      return;
    }
    setSubmitting(true);
    let url: string | undefined;
    try {
      const session = await createCheckout(email.trim(), hashes, styles);
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
      onRedirecting();
      window.location.href = url;
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : 'Failed to redirect to checkout.');
      setSubmitting(false);
    }
  }

  const rows: Array<[string, string]> = [
    ['Images uploaded', String(summary.imagesUploaded)],
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
            <p className="text-[15px] font-extrabold sm:text-lg sm:tracking-wide">LIMITED TIME OFFER: 30% OFF!</p>
          </div>

          <Card className="p-5 sm:p-6">
            <h2 className="text-lg font-semibold">Order summary</h2>
            <dl className="mt-4 divide-y divide-border text-sm">
              {rows.map(([label, value]) => (
                <div key={label} className="flex items-center justify-between py-2.5">
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="font-medium tabular-nums">{value}</dd>
                </div>
              ))}
              <div className="flex items-center justify-between py-2.5">
                <dt className="text-muted-foreground">Original price</dt>
                <dd className="font-medium tabular-nums text-muted-foreground line-through decoration-1">
                  {formatPrice(summary.originalPrice)}
                </dd>
              </div>
              <div className="flex items-center justify-between py-2.5">
                <dt className="font-medium text-emerald-700 dark:text-emerald-400">Discount ({summary.discountPercent}%)</dt>
                <dd className="font-semibold tabular-nums text-emerald-700 dark:text-emerald-400">-{formatPrice(summary.discount)}</dd>
              </div>
              <div className="flex items-center justify-between pt-4">
                <dt className="text-base font-bold">Total</dt>
                <dd className="text-2xl font-extrabold tabular-nums">{formatPrice(summary.total)}</dd>
              </div>
            </dl>
          </Card>
        </div>

        <Card className="h-fit p-5 sm:p-6 lg:col-span-2">
          <form onSubmit={submit} className="space-y-4">
            <div>
              <label htmlFor={emailId} className="text-sm font-semibold">
                Email address
              </label>
              <p className="mt-0.5 text-sm text-muted-foreground">We send your download link here.</p>
              <Input
                id={emailId}
                type="email"
                required
                autoComplete="email"
                inputMode="email"
                placeholder="you@example.com"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className="mt-3"
              />
            </div>
            <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={!email.trim() || !ready || submitting}>
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
