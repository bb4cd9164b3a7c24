import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { API_SECURITY_HEADERS, ORIGIN_VERIFY_HEADER } from '../../../domain/security-headers';
import { ENV } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import { answer, failure, sdkEnv } from '../../support/route-test';

/** GET /api/status: the health ping answers from the function alone, and only to requests that came through CloudFront. */
sdkEnv();
let handler: typeof import('../../../lambdas/routes/status')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/status'));
});

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2026-11-23T14:30:00.000Z');

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  ddb.reset();
});
afterEach(() => {
  jest.useRealTimers();
  delete process.env[ENV.originVerifySecret];
});

test('answers ok with the time, with the API security headers, touching no table', async () => {
  const res = await handler(httpEvent('GET /api/status'));
  expect(answer('status', res)).toEqual({ status: 200, body: { status: 'ok', time: NOW.toISOString() } });
  expect(res.headers).toMatchObject({ ...API_SECURITY_HEADERS, 'cache-control': 'no-store' });
  expect(ddb.calls()).toHaveLength(0);
});

test('without the origin secret CloudFront adds, or with another value, the answer is 403', async () => {
  process.env[ENV.originVerifySecret] = 'origin-secret-value';
  for (const headers of [{}, { [ORIGIN_VERIFY_HEADER]: 'guess' }] as Record<string, string>[]) {
    expect(failure(await handler(httpEvent('GET /api/status', { headers })))).toEqual({
      status: 403,
      body: { detail: 'Forbidden: use the site, not the API endpoint.' },
    });
  }
  const viaCloudFront = await handler(
    httpEvent('GET /api/status', { headers: { [ORIGIN_VERIFY_HEADER]: 'origin-secret-value' } }),
  );
  expect(viaCloudFront.statusCode).toBe(200);
});
