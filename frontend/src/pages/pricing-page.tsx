import { Check, FileImage, Palette, Scale } from 'lucide-react';
import { Link } from 'react-router';
import { MIN_SHORT_SIDE, PAID_LONG_SIDE } from '../../../domain/image-format';
import { DISCOUNT_PERCENT, formatPrice, orderSummary, PRICE_TIERS } from '../../../domain/pricing';
import { ButtonLink } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { useBrand } from '../lib/config';
import { usePageHead } from '../lib/page-head';
import { useAvailableStyles } from '../lib/use-query';
import { PageShell } from './page-shell';

const OUTPUTS = [
  {
    icon: Palette,
    title: 'Stylized AI artwork',
    text: 'Your photo in each cartoon style you pick; styles marked AI-generated are redrawn by a generative AI model.',
  },
  {
    icon: FileImage,
    title: `${PAID_LONG_SIDE} px images`,
    text: `Every paid image is ${PAID_LONG_SIDE} px on its long side, in every style, delivered as a PNG file, ready to print or post. Photos must be at least ${MIN_SHORT_SIDE} px on their short side.`,
  },
  { icon: Scale, title: 'Usage rights', text: 'Use your images as set out in our Terms of Service.' },
];

/** The styles of this deployment, each marked when a generative AI model draws it (read after load: it is per environment). */
function StyleList() {
  const styles = useAvailableStyles();
  if (!styles?.length) return null;
  return (
    <>
      <h2 className="mt-14 text-2xl font-bold tracking-tight">Styles</h2>
      <p className="mt-2 text-muted-foreground">Every style costs the same.</p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {styles.map((s) => (
          <li
            key={s.id}
            className="flex flex-wrap items-center gap-2 rounded-xl border border-border bg-card px-4 py-3 text-sm font-medium shadow-sm"
          >
            {s.name}
            {s.aiGenerated && (
              <span className="rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary">
                AI-generated
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

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
        <Card className="overflow-hidden lg:col-span-3">
          <table className="w-full text-left text-sm sm:text-base">
            <caption className="sr-only">Price per generated image by number of styles chosen</caption>
            <thead className="bg-muted text-xs tracking-wide text-muted-foreground uppercase">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Styles chosen per photo
                </th>
                <th scope="col" className="px-5 py-3 text-right font-semibold">
                  Price per image
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {PRICE_TIERS.map((tier) => (
                <tr key={tier.styles} className={tier === best ? 'bg-accent/60' : undefined}>
                  <th scope="row" className="px-5 py-4 font-medium">
                    {tier.label}
                    {tier === best && ' '}
                    {tier === best && (
                      <span className="brand-gradient ml-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">
                        Best value
                      </span>
                    )}
                  </th>
                  <td className="px-5 py-4 text-right text-lg font-bold tabular-nums">{formatPrice(tier.cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>

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

      <h2 className="mt-14 text-2xl font-bold tracking-tight">What you get</h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {OUTPUTS.map((o) => (
          <li key={o.title} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
            <o.icon aria-hidden="true" className="size-6 text-primary" />
            <h3 className="mt-3 font-semibold">{o.title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{o.text}</p>
          </li>
        ))}
      </ul>
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
