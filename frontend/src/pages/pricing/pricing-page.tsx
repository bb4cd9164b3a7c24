import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { DISCOUNT_PERCENT, formatPrice, orderSummary, PRICE_TIERS } from '../../../../domain/pricing';
import { ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useBrand } from '../../lib/config';
import { usePageHead } from '../../lib/page-head';
import { PageShell } from '../page-shell';
import { PriceTable } from './price-table';
import { StyleList, WhatYouGet } from './what-you-get';

export default function PricingPage() {
  const brand = useBrand();
  const example = orderSummary(1, 3);
  const best = PRICE_TIERS[PRICE_TIERS.length - 1];
  usePageHead(
    {
      title: `Pricing | ${brand}`,
      description: `${brand} prices per cartoon image: ${formatPrice(PRICE_TIERS[0].cents)} with one style, down to ${formatPrice(best.cents)} each with ${best.label} per photo.`,
      path: '/pricing',
    },
    brand,
  );

  return (
    <PageShell
      title="Simple, per-image pricing"
      intro={
        <>
          You pay per generated image. The more unique styles you choose for each uploaded photo, the less each image
          costs.
        </>
      }
    >
      <div className="grid gap-8 lg:grid-cols-5">
        <PriceTable />
        <div className="space-y-6 lg:col-span-2">
          <Card className="p-6">
            <h2 className="text-lg font-semibold">Example</h2>
            <p className="mt-2 text-muted-foreground">
              1 image and 3 styles = {example.totalGenerations} images at {formatPrice(example.pricePerGeneration)} ={' '}
              <strong className="text-foreground">{formatPrice(example.originalPrice)}</strong> list price, before
              discount.
            </p>
            <p className="mt-3 text-sm text-muted-foreground">
              Total generations = images × styles. Any current discount (now {DISCOUNT_PERCENT}% off) is shown on the
              order screen before you pay.
            </p>
          </Card>
          <ButtonLink to="/" variant="gradient" size="lg" className="w-full">
            Try {brand} Now!
          </ButtonLink>
        </div>
      </div>
      <WhatYouGet />
      <StyleList />
      <ul className="mt-8 space-y-2 text-sm text-muted-foreground">
        <li className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          <span>Prices in US dollars, paid by card at checkout. No account or subscription.</span>
        </li>
        <li className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          <span>
            Technical problems are covered by our{' '}
            <Link to="/refund" className="font-medium text-primary underline-offset-4 hover:underline">
              Refund Policy
            </Link>
            .
          </span>
        </li>
      </ul>
    </PageShell>
  );
}
