import { apiPath, ROUTES } from '../../domain/api-routes';

/** domain/api-routes.ts apiPath: the browser's URLs come from the route table. */
describe('apiPath', () => {
  test('fills and encodes the parameters of the route named by its handler', () => {
    expect(apiPath('config')).toBe('/api/config');
    expect(apiPath('get-job', { job_id: 'abc' })).toBe('/api/jobs/abc');
    expect(apiPath('delete-order-data', { id: 'a/b c' })).toBe('/api/generation/a%2Fb%20c/delete');
    expect(apiPath('get-image', { id: 'h', style: '3d' })).toBe('/api/image/h/3d');
  });

  test('every route of the table is reachable, and a missing parameter is an error, not a broken URL', () => {
    for (const route of ROUTES) {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = Object.fromEntries(names.map((n) => [n, 'x']));
      const filled = (apiPath as (h: string, p?: Record<string, string>) => string)(route.handler, params);
      expect(filled).toBe(route.path.replace(/\{\w+\}/g, 'x'));
    }
    expect(() => (apiPath as (h: string, p?: object) => string)('get-job', {})).toThrow(/needs job_id/);
    expect(() => (apiPath as (h: string) => string)('no-such-route')).toThrow(/No route/);
  });
});
