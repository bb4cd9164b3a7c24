import { METRICS } from '../../domain/wiring';
import { httpEvent } from '../support/http-event';

/** The wrappers publish an invocation's metrics as CloudWatch EMF on stdout, failures included (Powertools Metrics). */
describe('metrics from the wrappers', () => {
  const saved = { ...process.env };
  let out: string[];
  let restore: () => void;
  beforeEach(() => {
    Object.assign(process.env, { POWERTOOLS_METRICS_NAMESPACE: 'ToonZap/test', POWERTOOLS_LOG_LEVEL: 'CRITICAL' });
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    delete process.env.ORIGIN_VERIFY_SECRET;
    out = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: unknown) => {
      out.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    restore = () => {
      process.stdout.write = write;
    };
  });
  afterEach(() => {
    restore();
    process.env = { ...saved };
  });
  const emf = () =>
    out
      .join('')
      .split('\n')
      .filter((l) => l.includes('"_aws"'))
      .map((l) => JSON.parse(l));
  const load = () => {
    let mods!: {
      task: typeof import('../../lambdas/lib/task');
      http: typeof import('../../lambdas/lib/http');
      obs: typeof import('../../lambdas/lib/observability');
    };
    jest.isolateModules(() => {
      mods = {
        task: require('../../lambdas/lib/task'),
        http: require('../../lambdas/lib/http'),
        obs: require('../../lambdas/lib/observability'),
      };
    });
    return mods;
  };

  test('a task that counts a failed refund and then fails still publishes the metric', async () => {
    const { task, obs } = load();
    const handler = task.taskHandler('order-failed', async (_input: { order_id: string }) => {
      obs.countMetric(METRICS.refundFailures);
      throw new Error('Stripe is down');
    });
    await expect(handler({ order_id: 'o-1' })).rejects.toThrow('Stripe is down');
    const [doc] = emf();
    expect(doc._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'ToonZap/test', Dimensions: [['service']] });
    expect(doc).toMatchObject({ service: 'toonzap', [METRICS.refundFailures]: 1 });
  });

  test('a route answering 500 counts a server error for that route', async () => {
    const { http } = load();
    const handler = http.httpHandler(async () => {
      throw new Error('boom');
    });
    const res = await handler(
      httpEvent('POST /api/stripe-webhook', { path: '/api/x', headers: { 'content-type': 'application/json' } }),
    );
    expect(res.statusCode).toBe(500);
    const doc = emf().find((d) => d[METRICS.serverErrors] === 1);
    expect(doc).toMatchObject({ route: 'POST /api/stripe-webhook', service: 'toonzap' });
  });
});
