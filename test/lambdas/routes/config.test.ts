import { DEFAULT_SUPPORT_EMAIL } from '../../../domain/privacy';
import { ENV } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import { answer, sdkEnv } from '../../support/route-test';

/** GET /api/config: the browser's settings, from the variables the stack sets (their defaults in domain/config.ts). */
sdkEnv();
const SET = [ENV.brandName, ENV.paymentMode, ENV.stripePublishableKey, ENV.generativeStandIn] as const;
for (const name of SET) delete process.env[name];
process.env[ENV.supportEmail] = DEFAULT_SUPPORT_EMAIL;
let handler: typeof import('../../../lambdas/routes/config')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/config'));
});
afterEach(() => {
  for (const name of SET) delete process.env[name];
});

const get = () => handler(httpEvent('GET /api/config'));

test('the defaults: the brand, Stripe, no publishable key, the support address, the model draws', async () => {
  const res = await get();
  expect(answer('config', res)).toEqual({
    status: 200,
    body: {
      brand: 'ToonZap',
      paymentMode: 'stripe',
      publishableKey: null,
      supportEmail: DEFAULT_SUPPORT_EMAIL,
      generativeStandIn: false,
    },
  });
  // Read on every page load: cached a minute.
  expect(res.headers?.['cache-control']).toBe('public, max-age=60');
});

test('what the stack (or the local runtime) sets is what the browser reads', async () => {
  Object.assign(process.env, {
    [ENV.brandName]: 'Cartoonery',
    [ENV.paymentMode]: 'simulated',
    [ENV.stripePublishableKey]: 'pk_test_123',
    [ENV.generativeStandIn]: 'true',
    [ENV.supportEmail]: 'help@cartoonery.example',
  });
  expect(answer('config', await get()).body).toEqual({
    brand: 'Cartoonery',
    paymentMode: 'simulated',
    publishableKey: 'pk_test_123',
    supportEmail: 'help@cartoonery.example',
    generativeStandIn: true,
  });
  process.env[ENV.supportEmail] = DEFAULT_SUPPORT_EMAIL;
});

test('only "true" marks the generative styles as the stand-in', async () => {
  for (const value of ['false', '1', 'TRUE', '']) {
    process.env[ENV.generativeStandIn] = value;
    expect(answer('config', await get()).body.generativeStandIn).toBe(false);
  }
});
