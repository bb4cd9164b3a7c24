import { METRICS } from '../../domain/wiring';
import { countMetric, logger } from '../lib/observability';
import { payments } from '../lib/payments';
import { reconcile } from '../lib/reconciler';
import { settings } from '../lib/settings';
import { taskHandler } from '../lib/task';

/**
 * Scheduled every few minutes (lib/schedules.ts; locally also once at start): closes every gap a crash, a timeout
 * or a lost webhook can leave between a payment and its e-mail (see lambdas/lib/reconciler.ts).
 */
async function run() {
  // Before launch no payment is taken, so there is nothing to reconcile.
  if (settings.paymentMode === 'prelaunch') return { skipped: 'payments are not live' };
  const { stripe } = await payments();
  const result = await reconcile(stripe);
  // Each repair is a failure something else missed: the ReconcilerRepairs alarm (lib/monitoring.ts) tells a person.
  countMetric(METRICS.reconcilerRepairs, result.repairs.length);
  logger.info('reconcile pass', {
    checked: result.checked,
    repaired: result.repairs.length,
    errors: result.errors.length,
  });
  return result;
}

export const handler = taskHandler('reconcile', run);
