import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { apiEvent } from '../../local/api-event';

/**
 * An API Gateway HTTP API (payload 2.0) event as a route handler receives it, for handler tests. `routeKey` is the
 * route as domain/api-routes.ts names it (`GET /api/jobs/{job_id}`); `path` the concrete path; `body` is sent as JSON
 * unless it is a string.
 */
export interface EventInit {
  path?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: unknown;
  sourceIp?: string;
}

export function httpEvent(routeKey: string, init: EventInit = {}): APIGatewayProxyEventV2 {
  let path = init.path ?? routeKey.split(' ')[1];
  for (const [k, v] of Object.entries(init.pathParameters ?? {})) path = path.replace(`{${k}}`, v);
  const body =
    init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return apiEvent({
    routeKey,
    path,
    rawQueryString: new URLSearchParams(init.query ?? {}).toString(),
    headers: {
      host: 'example.test',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    cookies: init.cookies,
    pathParameters: init.pathParameters,
    body,
    isBase64Encoded: false,
    sourceIp: init.sourceIp ?? '203.0.113.7',
    requestId: 'test-request',
  });
}
