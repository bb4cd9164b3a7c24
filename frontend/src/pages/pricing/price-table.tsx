import { formatPrice, PRICE_TIERS } from '../../../../domain/pricing';
import { Card } from '../../components/ui/card';

/** The price of one image by how many styles each photo gets, the best tier marked. */
export function PriceTable() {
  const best = PRICE_TIERS[PRICE_TIERS.length - 1];
  return (
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
  );
}
