import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER } from '../../domain/security-headers';
import { ENV } from '../../domain/wiring';
import type { HttpResult } from '../../lambdas/lib/http';
import { httpEvent } from '../support/http-event';
import { checkout, deliverWebhook, moderate, pay, waitForGeneration } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';

/**
 * Logs through the local runtime (the same handlers and wrappers as on Lambda), captured from stdout/stderr at the
 * most verbose level: a checkout, payment webhook and order pipeline leave lines with request and order ids and
 * no e-mail address or Stripe secret anywhere.
 */
describe('observability', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;
  const captured: string[] = [];
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

  beforeAll(async () => {
    const tap = (target: 'out' | 'err') =>
      ((chunk: unknown, ...rest: unknown[]) => {
        captured.push(String(chunk));
        return (writes[target] as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stdout.write;
    process.stdout.write = tap('out');
    process.stderr.write = tap('err');
    runtime = await startTestRuntime({ paymentMode: 'simulated', logLevel: 'DEBUG' });
    client = api(runtime.url);
  });
  afterAll(async () => {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
    await runtime?.idle();
    await runtime?.close();
  });

  const logLines = () =>
    captured
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  test('a checkout and its webhook log request and order ids, never the e-mail address or a secret', async () => {
    const email = 'private.person+toon@mail-example.org';
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    await moderate(client, [hash]);
    const order = await checkout(client, email, [hash], ['anime']);
    const paid = await pay(runtime, order.session_id);
    expect(paid.delivery.status).toBe('delivered');
    // A webhook with a bad signature (its error names the header) and a replay.
    expect((await deliverWebhook(runtime, JSON.stringify(paid.event), { signature: 't=1,v1=deadbeef' })).status).toBe(
      400,
    );
    await deliverWebhook(runtime, JSON.stringify(paid.event));
    expect((await waitForGeneration(client, order.order_id)).status).toBe('completed');
    await runtime.idle();

    const text = captured.join('');
    expect(text).not.toContain(email);
    expect(text).not.toMatch(/mail-example\.org/);
    expect(text).not.toContain(runtime.env.STRIPE_SECRET_KEY);
    expect(text).not.toContain(runtime.env.STRIPE_WEBHOOK_SECRET);
    expect(text).not.toContain(runtime.env[ENV.originVerifySecret]);

    const lines = logLines();
    const webhook = lines.find((l) => l.message === 'webhook handled' && l.order_id === order.order_id);
    expect(webhook).toMatchObject({
      level: 'INFO',
      service: 'toonzap',
      request_id: expect.any(String),
      type: 'checkout.session.completed',
    });
    // Task lines carry the order id from their input and the Lambda request id.
    const generate = lines.filter((l) => l.order_id === order.order_id && typeof l.function_request_id === 'string');
    expect(generate.length).toBeGreaterThan(0);
  });

  test('an error that names an e-mail address or a Stripe key is logged redacted', async () => {
    const { logger } = await import('../../lambdas/lib/observability');
    const before = captured.length;
    logger.error('could not send to buyer@example.com', {
      error: new Error('sk_test_abcdefghijklmnop rejected for buyer@example.com'),
      email: 'x',
    });
    const line = captured.slice(before).join('');
    expect(line).toContain('could not send to [email]');
    expect(line).toContain('[secret] rejected for [email]');
    expect(line).toContain('"email":"[redacted]"');
    expect(line).not.toContain('@example.com');
  });

  test('the API answers only requests that came through CloudFront, with security headers', async () => {
    const { handler } = (await import('../../lambdas/routes/status')) as {
      handler: (e: APIGatewayProxyEventV2) => Promise<HttpResult>;
    };
    const event = (headers: Record<string, string>) => httpEvent('GET /api/status', { headers });
    const direct = await handler(event({}));
    expect(direct.statusCode).toBe(403);
    expect(JSON.parse(direct.body).detail).toMatch(/site/);
    expect((await handler(event({ [ORIGIN_VERIFY_HEADER]: 'guess' }))).statusCode).toBe(403);
    const viaCloudFront = await handler(event({ [ORIGIN_VERIFY_HEADER]: runtime.env[ENV.originVerifySecret] }));
    expect(viaCloudFront.statusCode).toBe(200);

    // Through the local gateway (CloudFront's stand-in adds the header): security headers on /api/*.
    const res = await fetch(`${runtime.url}/api/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});
