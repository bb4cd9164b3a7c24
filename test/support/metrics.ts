import type { MetricName } from '../../domain/wiring';
import { metrics } from '../../lambdas/lib/observability';

/**
 * Records the metrics the handlers add. They run in this process (local/lambda-host.ts), so their Powertools Metrics
 * is this one: recorded here, not published (metrics are AWS's). `restore` ends the recording.
 */
export function recordMetrics() {
  const addMetric = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
  return {
    count: (name: MetricName) => addMetric.mock.calls.filter(([n]) => n === name).length,
    /** The values added under `name`, summed (a count of items is one call with its number). */
    sum: (name: MetricName) =>
      addMetric.mock.calls.filter(([n]) => n === name).reduce((total, [, , value]) => total + value, 0),
    restore: () => addMetric.mockRestore(),
  };
}
