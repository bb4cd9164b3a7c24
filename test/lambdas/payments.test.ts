import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** lambdas/lib/payments.ts: where the Stripe keys come from, and where the client sends its requests. */
describe('payments configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const load = () => {
    let mod!: typeof import('../../lambdas/lib/payments');
    jest.isolateModules(() => {
      mod = require('../../lambdas/lib/payments');
    });
    return mod;
  };

  test('keys from the environment; STRIPE_API_BASE points the SDK at another host', async () => {
    // A stand-in Stripe API that records what it is asked.
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 're_1', object: 'refund', amount: 5 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    Object.assign(process.env, {
      STRIPE_SECRET_KEY: 'sk_test_env',
      STRIPE_WEBHOOK_SECRET: 'whsec_env',
      STRIPE_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    const { stripe, webhookSecret } = await load().payments();
    expect(webhookSecret).toBe('whsec_env');
    expect((await stripe.refunds.create({ payment_intent: 'pi_1', amount: 5 })).id).toBe('re_1');
    expect(seen).toEqual(['POST /v1/refunds Bearer sk_test_env']);
    server.close();
  });

  test('a second local runtime in the same process (the bench) gets a client of its own, the first keeps its own', async () => {
    const mod = load();
    Object.assign(process.env, {
      STRIPE_SECRET_KEY: 'sk_test_a',
      STRIPE_WEBHOOK_SECRET: 'whsec_a',
      STRIPE_API_BASE: 'http://127.0.0.1:1111',
    });
    const first = await mod.payments();
    expect(await mod.payments()).toBe(first);
    Object.assign(process.env, { STRIPE_WEBHOOK_SECRET: 'whsec_b', STRIPE_API_BASE: 'http://127.0.0.1:2222' });
    const second = await mod.payments();
    expect(second).not.toBe(first);
    expect(second.webhookSecret).toBe('whsec_b');
  });

  test('otherwise from the Secrets Manager secret, read once per container', async () => {
    let reads = 0;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        reads++;
        expect(req.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
        expect(JSON.parse(body).SecretId).toBe('toonzap/stripe');
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(
          JSON.stringify({
            Name: 'toonzap/stripe',
            SecretString: JSON.stringify({ secretKey: 'sk_test_sm', webhookSecret: 'whsec_sm' }),
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_WEBHOOK_SECRET;
    Object.assign(process.env, {
      STRIPE_SECRET_NAME: 'toonzap/stripe',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
    const mod = load();
    const first = await mod.payments();
    const second = await mod.payments();
    expect(first.webhookSecret).toBe('whsec_sm');
    expect(second).toBe(first);
    expect(reads).toBe(1);
    server.close();
  });

  test('no configuration is an error that says what to set', async () => {
    for (const k of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_NAME']) delete process.env[k];
    await expect(load().payments()).rejects.toThrow(/STRIPE_SECRET_NAME/);
  });
});
