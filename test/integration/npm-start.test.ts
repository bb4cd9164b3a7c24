import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Stripe from 'stripe';

/**
 * `npm start` (local/start.ts) can be driven from outside: it verifies webhooks with STRIPE_WEBHOOK_SECRET when that
 * is set (so a harness can sign events), and keeps every service's data in TOONZAP_DATA_DIR.
 */
test('npm start honours STRIPE_WEBHOOK_SECRET and TOONZAP_DATA_DIR', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-npm-start-'));
  const secret = `whsec_harness_${Date.now()}`;
  const root = path.join(__dirname, '../..');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    TOONZAP_DATA_DIR: dataDir,
    STRIPE_WEBHOOK_SECRET: secret,
  };
  delete env.PAYMENT_MODE;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'local/start.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /ToonZap is running on (http:\/\/localhost:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
    });
    const payload = JSON.stringify({
      id: 'evt_harness_1',
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: {} },
    });
    const post = (signature: string) =>
      fetch(`${url}/api/stripe-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    expect(await post(Stripe.webhooks.generateTestHeaderString({ payload, secret }))).toEqual({
      status: 200,
      body: { received: true, ignored: 'customer.created' },
    });
    expect(
      (await post(Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' }))).status,
    ).toBe(400);
    for (const service of ['dynamodb', 's3', 'stepfunctions'])
      expect(fs.existsSync(path.join(dataDir, service))).toBe(true);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  // The simulated Stripe saves its state there when it stops.
  expect(fs.existsSync(path.join(dataDir, 'stripe', 'stripe.json'))).toBe(true);
});
