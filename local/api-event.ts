import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** One request to a route of the HTTP API, as the local gateway (and a handler test) has it. */
export interface ApiRequest {
  /** The route as domain/api-routes.ts names it: `GET /api/jobs/{job_id}`. */
  routeKey: string;
  /** The concrete path. */
  path: string;
  /** Without the `?`; empty when there is none. */
  rawQueryString: string;
  /** Lower-case names; no `cookie` (payload 2.0 hands cookies over as `cookies`). */
  headers: Record<string, string>;
  cookies?: string[];
  pathParameters?: Record<string, string>;
  body?: string;
  isBase64Encoded: boolean;
  sourceIp: string;
  requestId: string;
}

/** API Gateway's `requestContext.time`: `28/Nov/2026:12:26:20 +0000`. */
function requestTime(at: Date): string {
  const [, day, month, year, time] = at.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

/**
 * The payload 2.0 event API Gateway's HTTP API hands a route's function, every field it documents filled in (the
 * account, API and stage are the local runtime's own: no handler reads them).
 */
export function apiEvent(r: ApiRequest, at = new Date()): APIGatewayProxyEventV2 {
  const [method] = r.routeKey.split(' ');
  const domainName = r.headers.host ?? 'localhost';
  return {
    version: '2.0',
    routeKey: r.routeKey,
    rawPath: r.path,
    rawQueryString: r.rawQueryString,
    cookies: r.cookies,
    headers: r.headers,
    queryStringParameters: r.rawQueryString ? Object.fromEntries(new URLSearchParams(r.rawQueryString)) : undefined,
    pathParameters: r.pathParameters,
    body: r.body,
    isBase64Encoded: r.isBase64Encoded,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0],
      http: {
        method,
        path: r.path,
        protocol: 'HTTP/1.1',
        sourceIp: r.sourceIp,
        userAgent: r.headers['user-agent'] ?? '',
      },
      requestId: r.requestId,
      routeKey: r.routeKey,
      stage: '$default',
      time: requestTime(at),
      timeEpoch: at.getTime(),
    },
  };
}
