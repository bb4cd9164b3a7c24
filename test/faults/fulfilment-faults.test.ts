import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import Stripe from 'stripe';
import { checkout, emailsTo, moderate, waitForGeneration } from '../support/orders';
import { api, photo, uploadPhoto } from '../support/runtime';
import { startRuntimeProcess } from '../support/runtime-child';

/**
 * Fault test: a paid order survives SIGKILL of the whole runtime (app, Stripe, Step Functions, every store) at each
 * point where money and work change hands. Each chain pays one order, then kills the runtime at one point after
 * another (TOONZAP_PAUSE_AT makes the first run that reaches a point stop there and say so; lambdas/lib/fault-points.ts),
 * restarting on the same data directory each time; Stripe's redelivery, the resumed executions and the reconciler
 * (run at start) must carry the order on. In the end: completed once, every image served, one e-mail, no refund.
 */
type Step = { pause: string } | { afterWebhook: true };

const CHAINS: { name: string; steps: Step[] }[] = [
  {
    name: 'webhook claimed → each fulfilment step → mid-generation → e-mail task',
    steps: [
      { pause: 'webhook:claimed' },
      { pause: 'fulfil:paid' },
      { pause: 'fulfil:generation' },
      { pause: 'fulfil:started' },
      { pause: 'item:rendered' },
      { pause: 'email:start' },
    ],
  },
  {
    name: 'right after the webhook answered → mid-generation → finalized → e-mail claimed',
    steps: [
      { afterWebhook: true },
      { pause: 'item:rendered' },
      { pause: 'order:finalized' },
      { pause: 'email:claimed' },
    ],
  },
  {
    name: 'generation created, no execution → execution started → e-mail task',
    steps: [{ pause: 'fulfil:generation' }, { pause: 'fulfil:started' }, { pause: 'email:start' }],
  },
  {
    name: 'paid, no generation → mid-generation twice',
    steps: [{ pause: 'fulfil:paid' }, { pause: 'item:rendered' }, { pause: 'item:rendered' }],
  },
  {
    name: 'webhook claimed → execution started → finalized → e-mail task',
    steps: [
      { pause: 'webhook:claimed' },
      { pause: 'fulfil:started' },
      { pause: 'order:finalized' },
      { pause: 'email:start' },
    ],
  },
];

const STYLES = ['comic', 'sketch'];
const PHOTO = photo('chelsea.png');

type Child = Awaited<ReturnType<typeof startRuntimeProcess>>;

describe('paid orders survive SIGKILL at every step', () => {
  const alive = new Set<Child>();
  const results: { chain: string; kills: number; lost: boolean }[] = [];

  // One runtime started and stopped first: it synthesizes the template into the cache (local/template.ts), so the
  // chains' many restarts, five at a time, do not all synthesize at once.
  beforeAll(async () => {
    const warm = await startRuntimeProcess(fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-faults-warm-')));
    await warm.stop();
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...alive].map((c) => c.kill()));
    const kills = results.reduce((n, r) => n + r.kills, 0);
    console.log(
      `fulfilment faults: ${kills} kills, ${results.filter((r) => r.lost).length} of ${results.length} orders lost`,
    );
  });

  const start = async (dataDir: string, pause?: string) => {
    // Everything each runtime printed is kept beside its data, for the post-mortem of a failure.
    const child = await startRuntimeProcess(dataDir, {
      env: pause ? { TOONZAP_PAUSE_AT: pause } : {},
      logFile: path.join(dataDir, 'runtime.log'),
    });
    alive.add(child);
    return child;
  };
  const kill = async (child: Child) => {
    await child.kill();
    alive.delete(child);
  };

  // Two chains at a time (each has its own runtime and data): the suite mostly waits on restarts, but each runtime
  // also runs the engine in process, and more at once would starve them on a small machine.
  let free = 2;
  const queue: (() => void)[] = [];
  const slot = async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => queue.push(resolve));
    return () => (queue.length ? queue.shift()!() : free++);
  };

  test.concurrent.each(CHAINS)(
    '$name',
    async (chain) => {
      const release = await slot();
      try {
        await runChain(chain);
      } finally {
        release();
      }
    },
    900_000,
  );

  async function runChain({ name, steps }: (typeof CHAINS)[number]) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-faults-'));
    const email = `faults-${results.length}@example.com`;
    const record = { chain: name, kills: 0, lost: true };
    results.push(record);

    // The first runtime takes the order and is killed at the first point.
    const first = steps[0];
    let child = await start(dataDir, 'pause' in first ? first.pause : undefined);
    const client = api(child.url);
    const hash = await uploadPhoto(client, PHOTO);
    await moderate(client, [hash]);
    const order = await checkout(client, email, [hash], STYLES);
    const paying = fetch(`${child.stripeUrl}/__simulate/pay/${order.session_id}`, { method: 'POST' }).then(
      (r) => r.json(),
      () => null,
    );
    if ('pause' in first) {
      await child.paused(first.pause);
    } else {
      // The webhook's 200 has been received when the simulated payment answers: kill at once.
      expect((await paying)?.delivery?.status).toBe('delivered');
    }
    await kill(child);
    record.kills++;

    // Each later point is reached by whatever carries the order on after a restart, and killed there too.
    for (const step of steps.slice(1)) {
      const point = (step as { pause: string }).pause;
      child = await start(dataDir, point);
      await child.paused(point);
      await kill(child);
      record.kills++;
    }

    // A last restart with no fault: the order must finish, exactly once.
    child = await start(dataDir);
    const after = api(child.url);
    const generation = await waitForGeneration(after, order.order_id, undefined, 150_000);
    const sfn = new SFNClient({
      endpoint: child.env.AWS_ENDPOINT_URL_SFN,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const executionArn = `${child.env.ORDER_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${order.order_id}`;
    const until = Date.now() + 90_000;
    let execution = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    while (execution.status === 'RUNNING' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      execution = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    }
    sfn.destroy();

    expect(generation).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(generation.refund).toBeUndefined();
    expect(execution.status).toBe('SUCCEEDED');
    expect(generation.images.map((i) => i.styleId).sort()).toEqual([...STYLES].sort());
    for (const image of generation.images) {
      const res = await fetch(image.url);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(await emailsTo(child, email)).toHaveLength(1);
    const stripe = new Stripe(child.env.STRIPE_SECRET_KEY, {
      host: '127.0.0.1',
      port: Number(new URL(child.stripeUrl).port),
      protocol: 'http',
    });
    const session = await stripe.checkout.sessions.retrieve(order.session_id);
    expect(session.payment_status).toBe('paid');
    expect((await stripe.refunds.list({ payment_intent: session.payment_intent as string })).data).toEqual([]);
    record.lost = false;
    await child.stop();
    alive.delete(child);
  }

  test('at least 20 kills in all, no order lost', () => {
    expect(results).toHaveLength(CHAINS.length);
    expect(results.reduce((n, r) => n + r.kills, 0)).toBeGreaterThanOrEqual(20);
    expect(results.filter((r) => r.lost)).toEqual([]);
  });
});
