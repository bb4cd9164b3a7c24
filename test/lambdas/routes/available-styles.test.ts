import { generativePresets } from '../../../domain/config';
import { DEFAULT_GENERATIVE } from '../../../domain/generative';
import { STYLES } from '../../../domain/styles';
import { ENV } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import { answer, sdkEnv } from '../../support/route-test';

/** GET /api/available-styles: the catalogue, each style saying whether a generative model draws it in this deployment. */
sdkEnv();
delete process.env[ENV.generativeStyles];
let handler: typeof import('../../../lambdas/routes/available-styles')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/available-styles'));
});
afterEach(() => {
  delete process.env[ENV.generativeStyles];
});

const get = () => handler(httpEvent('GET /api/available-styles'));

test('every style of the catalogue, in its order, with its texts; none AI-generated without generative styles', async () => {
  const res = await get();
  expect(answer('available-styles', res)).toEqual({
    status: 200,
    body: {
      styles: STYLES.map(({ id, name, description, preview }) => ({
        id,
        name,
        description,
        preview,
        aiGenerated: false,
      })),
    },
  });
  expect(res.headers?.['cache-control']).toBe('public, max-age=300');
});

test('the styles the configuration gives a model are marked AI-generated, the others not', async () => {
  process.env[ENV.generativeStyles] = JSON.stringify(generativePresets(DEFAULT_GENERATIVE, 'us-west-2'));
  const flags = Object.fromEntries(
    answer('available-styles', await get()).body.styles.map((s) => [s.id, s.aiGenerated]),
  );
  expect(flags).toEqual(Object.fromEntries(STYLES.map((s) => [s.id, DEFAULT_GENERATIVE.includes(s.id)])));
  expect(DEFAULT_GENERATIVE).toEqual(['3d', 'anime']);
});
