import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { S3RVER_CREDENTIALS } from '../../local/emulators';
import {
  checkout,
  deliverWebhook,
  emailsTo,
  moderate,
  orderExecutions,
  stripeClient,
  waitForGeneration,
} from '../support/orders';
import { api, ownerIdOf, photo, startTestRuntime, uploadPhoto } from '../support/runtime';

/**
 * The parts that keep a paid order from being lost, one by one: a webhook delivery's hold on its event ends with its
 * function's timeout, the reconciler repairs each gap a crash can leave, and a job whose execution is gone ends
 * FAILURE. The gaps are made with the test-only pause points (lambdas/lib/fault-points.ts): a run stops for good where a crash would have stopped it.
 */
describe('fulfilment that cannot be lost', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  let ddb: DynamoDBDocumentClient;
  let sfn: SFNClient;
  let hash: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    client = api(runtime.url);
    ddb = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: S3RVER_CREDENTIALS }),
    );
    sfn = new SFNClient({
      endpoint: runtime.env.AWS_ENDPOINT_URL_SFN,
      region: 'us-east-1',
      credentials: S3RVER_CREDENTIALS,
    });
    hash = await uploadPhoto(client, photo('chelsea.png'));
    await moderate(client, [hash]);
  });
  afterAll(async () => {
    delete process.env.TOONZAP_PAUSE_AT;
    ddb?.destroy();
    sfn?.destroy();
    await runtime?.close();
  });

  /** Makes the next run that reaches `point` (in this process) stop there for good; resolves when one did. */
  function pauseAt(point: string): Promise<void> {
    process.env.TOONZAP_PAUSE_AT = point;
    const write = process.stdout.write;
    return new Promise((resolve) => {
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        if (String(chunk).includes(JSON.stringify({ paused_at: point }))) {
          delete process.env.TOONZAP_PAUSE_AT;
          process.stdout.write = write;
          resolve();
          return true;
        }
        return write.call(process.stdout, chunk, ...rest);
      }) as typeof process.stdout.write;
    });
  }

  /** Pays on the local Stripe without waiting for the webhook (it may be paused for good). */
  const payInBackground = (sessionId: string) =>
    void fetch(`${runtime.stripeUrl}/__simulate/pay/${sessionId}`, { method: 'POST' }).then(
      (r) => r.arrayBuffer(),
      () => null,
    );

  const orderStatus = async (id: string) =>
    (
      (await ddb.send(new GetCommand({ TableName: runtime.env.ORDERS_TABLE, Key: { order_id: id } }))).Item as {
        status: string;
      }
    ).status;

  const reconcile = async () => {
    const [result] = (await runtime.runSchedules()) as {
      repairs: { repair: string; order_id: string }[];
      errors: unknown[];
    }[];
    expect(result.errors).toEqual([]);
    return result.repairs;
  };

  test("a redelivery while a delivery is at work is asked to retry; after that delivery's timeout it takes over", async () => {
    const order = await checkout(client, 'lease@example.com', [hash], ['comic']);
    const session = await stripeClient(runtime).checkout.sessions.retrieve(order.session_id);
    const eventId = `evt_lease_${randomUUID().replace(/-/g, '')}`;
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, status: 'complete', payment_status: 'paid', payment_intent: 'pi_lease_test' } },
    });
    // A delivery took the event and stops there for good, as a run that died would.
    const paused = pauseAt('webhook:claimed');
    // (Its request is answered only when the runtime fails the run at the function's timeout: not waited for.)
    void deliverWebhook(runtime, payload).catch(() => null);
    await paused;

    const busy = await deliverWebhook(runtime, payload);
    expect(busy.status).toBe(409);
    expect(String(busy.body.detail)).toMatch(/being handled/);
    expect(await orderStatus(order.order_id)).toBe('created');

    // Its record is held until Lambda would have stopped that run (the webhook's 30 s timeout): that time is passed.
    const { Items: held = [] } = await ddb.send(
      new ScanCommand({
        TableName: runtime.env.EVENTS_TABLE,
        FilterExpression: '#s = :inprogress',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':inprogress': 'INPROGRESS' },
      }),
    );
    expect(held).toHaveLength(1);
    expect(held[0].in_progress_expiration).toBeGreaterThan(Date.now());
    await ddb.send(
      new UpdateCommand({
        TableName: runtime.env.EVENTS_TABLE,
        Key: { event_id: held[0].event_id },
        UpdateExpression: 'SET in_progress_expiration = :t',
        ExpressionAttributeValues: { ':t': Date.now() - 1000 },
      }),
    );
    expect(await deliverWebhook(runtime, payload)).toEqual({
      status: 200,
      body: { received: true, outcome: 'order paid, generation started' },
    });
    expect(await orderStatus(order.order_id)).toBe('paid');
    expect(await orderExecutions(runtime, order.order_id)).toHaveLength(1);
    // Handled means handled: later deliveries change nothing.
    expect(await deliverWebhook(runtime, payload)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await waitForGeneration(client, order.order_id)).toMatchObject({ status: 'completed', progress: 100 });
  });

  test('the reconciler fulfils paid sessions a crash left at each step of the fulfilment, once', async () => {
    // The repair lines the reconciler logs (Powertools writes them to stdout/stderr).
    const logged: string[] = [];
    const writes = [process.stdout, process.stderr].map((stream) => {
      const write = stream.write;
      stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        logged.push(...String(chunk).split('\n'));
        return write.call(stream, chunk, ...rest);
      }) as typeof stream.write;
      return () => (stream.write = write);
    });
    const cases = [
      { point: 'webhook:claimed', repair: 'session-paid-order-unpaid', email: 'rec-claimed@example.com' },
      { point: 'fulfil:paid', repair: 'order-paid-without-generation', email: 'rec-paid@example.com' },
      { point: 'fulfil:generation', repair: 'generation-without-execution', email: 'rec-generation@example.com' },
    ];
    const orders: string[] = [];
    try {
      for (const c of cases) {
        const order = await checkout(client, c.email, [hash], ['sketch']);
        orders.push(order.order_id);
        const paused = pauseAt(c.point);
        payInBackground(order.session_id);
        await paused;
        expect(await orderExecutions(runtime, order.order_id)).toEqual([]);
        const repairs = await reconcile();
        expect(repairs).toContainEqual(expect.objectContaining({ repair: c.repair, order_id: order.order_id }));
        expect(
          logged.map((l) => {
            try {
              return JSON.parse(l);
            } catch {
              return null;
            }
          }),
        ).toContainEqual(
          expect.objectContaining({ message: 'reconciled', repair: c.repair, order_id: order.order_id }),
        );
      }
    } finally {
      for (const restore of writes) restore();
    }
    for (const [i, id] of orders.entries()) {
      const generation = await waitForGeneration(client, id);
      expect(generation).toMatchObject({ status: 'completed', progress: 100, error: null });
      expect(generation.refund).toBeUndefined();
      const until = Date.now() + 30_000;
      while ((await emailsTo(runtime, cases[i].email)).length === 0 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 200));
      expect(await emailsTo(runtime, cases[i].email)).toHaveLength(1);
      expect(await orderExecutions(runtime, id)).toHaveLength(1);
    }
    // Idempotent: nothing is left to repair, and a second pass changes nothing.
    await runtime.idle();
    expect((await reconcile()).filter((r) => orders.includes(r.order_id))).toEqual([]);
  });

  test('a job whose execution is gone ends FAILURE with a reason, never 500', async () => {
    const put = async (job: Record<string, unknown>) => {
      const id = randomUUID();
      await ddb.send(
        new PutCommand({
          TableName: runtime.env.JOBS_TABLE,
          Item: {
            job_id: id,
            kind: 'moderation',
            image_hashes: [hash],
            owner: ownerIdOf(client),
            created_at: job.updated_at,
            expires_at: 9_999_999_999,
            ...job,
          },
        }),
      );
      return id;
    };
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    const machine = runtime.env.JOBS_MACHINE_ARN;
    // Its execution was acknowledged, then lost (the case: PENDING forever, then 500 on every poll).
    const lost = await put({
      status: 'PENDING',
      updated_at: minuteAgo,
      execution_arn: `${machine.replace(':stateMachine:', ':execution:')}:gone-${randomUUID()}`,
    });
    // The process died between storing the job and starting its execution.
    const neverStarted = await put({ status: 'PENDING', updated_at: minuteAgo });
    // Just created: its execution may still be on its way.
    const fresh = await put({ status: 'PENDING', updated_at: new Date().toISOString() });

    for (const id of [lost, neverStarted]) {
      expect(await client.get(`/api/jobs/${id}`)).toEqual({ status: 200, body: 'FAILURE' });
      expect(await client.get(`/api/jobs/${id}`)).toEqual({ status: 200, body: 'FAILURE' });
      const job = (await ddb.send(new GetCommand({ TableName: runtime.env.JOBS_TABLE, Key: { job_id: id } }))).Item!;
      expect(job.error).toMatch(/lost/);
    }
    expect(await client.get(`/api/jobs/${fresh}`)).toEqual({ status: 200, body: 'PENDING' });
  });
});
