import { Receipt } from 'lucide-react';
import { Card } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import type { Generation } from '../../lib/api';

/**
 * The order's receipt on the status page: the lines the server formatted from the order record with
 * domain/order-receipt.ts, the same lines the order e-mail shows (what was bought, discount, paid, refunded and why).
 */
export function OrderReceipt({ lines }: { lines: NonNullable<Generation['receipt']> }) {
  return (
    <Card className="p-6 sm:p-8">
      <h2 id="receipt-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Receipt aria-hidden="true" className="size-5 text-primary" />
        Your receipt
      </h2>
      <dl aria-labelledby="receipt-heading" className="mt-4 divide-y divide-border text-sm">
        {lines.map((line) => (
          <div
            key={line.label}
            className={cn('flex items-start justify-between gap-4 py-2.5', line.strong && 'font-semibold')}
          >
            <dt className="min-w-0">
              {line.label}
              {line.note && <span className="mt-0.5 block font-normal text-muted-foreground">{line.note}</span>}
            </dt>
            <dd className="shrink-0 text-right tabular-nums">{line.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
