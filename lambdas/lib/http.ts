import { timingSafeEqual } from 'node:crypto';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { z } from 'zod';
import type { GoneOf, GoneRoute, ResponseOf, RouteName } from '../../domain/contract';
import { API_SECURITY_HEADERS, ORIGIN_VERIFY_HEADER } from '../../domain/security-headers';
import { ENV, METRICS } from '../../domain/wiring';
import { secretsManager } from './aws';
import { type InvocationContext, instrumented, logger, metrics } from './observability';

/**
 * A route's answer (payload 2.0). Narrower than aws-lambda's result type, where everything is optional and header
 * values may be numbers: every answer here has a status and a body, and headers are strings (they are merged with the
 * security headers and read back by the local gateway and the tests).
 */
export interface HttpResult extends APIGatewayProxyStructuredResultV2 {
  statusCode: number;
  headers?: Record<string, string>;
  /** Set-Cookie values (payload 2.0: API Gateway sends one Set-Cookie header each). */
  cookies?: string[];
  body: string;
  isBase64Encoded?: boolean;
}

/** An error whose message is safe to show the caller, as `{"detail": message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const notFound = (detail: string) => new HttpError(404, detail);

export function json(statusCode: number, value: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(value),
  };
}

/** A route's answer, type-checked against its response schema in domain/contract.ts. */
export function respond<R extends RouteName>(
  _route: R,
  statusCode: number,
  value: ResponseOf<R>,
  headers: Record<string, string> = {},
): HttpResult {
  return json(statusCode, value, headers);
}

/** A route's 410 Gone answer (deleted on purpose), type-checked against its `gone` schema in domain/contract.ts. */
export function respondGone<R extends GoneRoute>(_route: R, value: GoneOf<R>): HttpResult {
  return json(410, value);
}

export function rawBody(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** Parses a JSON object body or throws a 400 that says what is wrong. */
export function jsonBody(event: APIGatewayProxyEventV2): Record<string, unknown> {
  const text = rawBody(event);
  if (!text.trim()) throw badRequest('Request body must be a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** A request cookie's value, or undefined (payload 2.0's `cookies`: "name=value" each). */
export function cookieValue(event: APIGatewayProxyEventV2, name: string): string | undefined {
  for (const c of event.cookies ?? []) {
    const eq = c.indexOf('=');
    if (eq > 0 && c.slice(0, eq).trim() === name) return c.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * POST bodies must say they are JSON. A browser sends `text/plain` and form types across sites without asking
 * (a "simple request"), so a hostile page could otherwise make its visitors start work here; JSON needs a CORS
 * preflight, which this API never grants.
 */
function unsupportedMediaType(event: APIGatewayProxyEventV2): boolean {
  if (event.requestContext?.http?.method !== 'POST') return false;
  const type = (event.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type !== 'application/json';
}

/** Longest path parameter any route accepts (ids are 36, hashes 64 characters); longer ones are refused unread. */
export const MAX_PATH_PARAM = 200;

/**
 * A path parameter, percent-decoded. Malformed escapes (`%E0%A4%A`), over-long values and control characters are the
 * caller's mistake: a short 400, never a 500, and the value is not echoed back.
 */
export function pathParam(event: APIGatewayProxyEventV2, name: string): string {
  const raw = event.pathParameters?.[name];
  if (!raw) throw badRequest(`Missing path parameter ${name}.`);
  if (raw.length > MAX_PATH_PARAM) throw badRequest(`Path parameter ${name} is too long.`);
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw badRequest(`Path parameter ${name} is not validly percent-encoded.`);
  }
  if (/[\p{Cc}\p{Cf}]/u.test(value)) throw badRequest(`Path parameter ${name} contains control characters.`);
  return value;
}

/** At most `max` characters of caller input, for messages that name what was not found or refused. */
export function clip(input: string, max = 40): string {
  return input.length > max ? `${input.slice(0, max)}…` : input;
}

/** Checks a value against a contract schema (domain/contract.ts); the first failed check becomes the 400's detail. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join('.');
  // Our schemas carry user-facing messages, shown as they are; zod's own generic ones ("Invalid input: expected
  // string, received number" for a field we gave no message) get the field's name in front.
  const generic = /^(Invalid|Too (big|small)|Unrecognized)\b/.test(issue.message);
  const detail = generic && field ? `${field}: ${issue.message}` : issue.message;
  throw badRequest(detail);
}

/** The JSON body, parsed by the route's request schema. */
export function parseBody<S extends z.ZodType>(event: APIGatewayProxyEventV2, schema: S): z.output<S> {
  return parseWith(schema, jsonBody(event));
}

/** Seconds an instance keeps the origin secret's values before reading them again. */
const ORIGIN_SECRET_MAX_AGE_S = 300;
/** A header that matches neither value reads them again at once, at most this often (a rotation just made). */
const ORIGIN_SECRET_REFRESH_MS = 30_000;

/**
 * The origin secret's values a request may carry: AWSCURRENT and AWSPREVIOUS. A rotation makes a new AWSCURRENT, then
 * sets it as CloudFront's header, which reaches the edge locations over minutes: meanwhile some send the old value
 * (now AWSPREVIOUS), some the new. One provider per stage: Powertools caches by secret name only.
 */
class OriginSecret {
  private readonly current = new SecretsProvider({ awsSdkV3Client: secretsManager() });
  private readonly previous = new SecretsProvider({ awsSdkV3Client: secretsManager() });
  /** Until then the secret is known to have no AWSPREVIOUS (never rotated): not asked for on every request. */
  private noPreviousUntil = 0;

  async values(secretId: string, forceFetch: boolean): Promise<string[]> {
    const options = (VersionStage: string) => ({
      maxAge: ORIGIN_SECRET_MAX_AGE_S,
      forceFetch,
      sdkOptions: { VersionStage },
    });
    const values = [await this.current.get(secretId, options('AWSCURRENT'))];
    if (forceFetch || Date.now() >= this.noPreviousUntil) {
      try {
        values.push(await this.previous.get(secretId, options('AWSPREVIOUS')));
        this.noPreviousUntil = 0;
      } catch (err) {
        if (((err as Error).cause as Error | undefined)?.name !== 'ResourceNotFoundException') throw err;
        this.noPreviousUntil = Date.now() + ORIGIN_SECRET_MAX_AGE_S * 1000;
      }
    }
    return values.filter((v): v is string => typeof v === 'string' && v !== '');
  }
}

let originSecret: OriginSecret | undefined;
let lastRefresh = 0;

function oneOf(given: string, values: readonly string[]): boolean {
  const g = Buffer.from(given);
  return values.some((v) => {
    const want = Buffer.from(v);
    return g.length === want.length && timingSafeEqual(g, want);
  });
}

/**
 * True when the request came through CloudFront: it carries the origin secret CloudFront adds (lib/site.ts). Deployed,
 * the secret is read from Secrets Manager (ORIGIN_SECRET_ARN; never a value in the environment) and cached; a value
 * given as ORIGIN_VERIFY_SECRET wins (the local runtime has no Secrets Manager, as with the Stripe keys). With neither
 * (unit tests calling a handler directly) there is nothing to check.
 */
async function fromCloudFront(event: APIGatewayProxyEventV2): Promise<boolean> {
  const given = event.headers?.[ORIGIN_VERIFY_HEADER] ?? '';
  const plain = process.env[ENV.originVerifySecret];
  if (plain) return oneOf(given, [plain]);
  const secretId = process.env[ENV.originSecretArn];
  if (!secretId) return true;
  if (!given) return false;
  originSecret ??= new OriginSecret();
  if (oneOf(given, await originSecret.values(secretId, false))) return true;
  // Perhaps a value rotated since this instance read it; a caller without the secret gets one read per 30 s at most.
  if (Date.now() - lastRefresh < ORIGIN_SECRET_REFRESH_MS) return false;
  lastRefresh = Date.now();
  return oneOf(given, await originSecret.values(secretId, true));
}

/**
 * Wraps a route handler, once for all routes: requests that did not come through CloudFront are refused (403);
 * HttpErrors become `{"detail"}` answers; anything else is logged and becomes a 500 without internals. Every
 * answer carries the API's security headers; every log line the request id (lambdas/lib/observability.ts).
 */
export function httpHandler(
  fn: (event: APIGatewayProxyEventV2) => Promise<HttpResult>,
): (event: APIGatewayProxyEventV2, context?: InvocationContext) => Promise<HttpResult> {
  return async (event, context) => {
    const route = event.routeKey ?? 'unknown route';
    const result = await instrumented(route, context, { request_id: event.requestContext?.requestId }, async () => {
      try {
        if (!(await fromCloudFront(event)))
          return json(403, { detail: 'Forbidden: use the site, not the API endpoint.' });
        if (unsupportedMediaType(event)) return json(415, { detail: 'Send the request body as application/json.' });
        return await fn(event);
      } catch (err) {
        if (err instanceof HttpError) {
          if (err.statusCode >= 500)
            logger.warn('answered with a server error', { route, status: err.statusCode, detail: err.message });
          return json(err.statusCode, { detail: err.message });
        }
        logger.error('unhandled error', { route, error: err as Error });
        return json(500, { detail: 'Internal server error. Please try again.' });
      }
    });
    if (result.statusCode >= 500) {
      const metric = metrics.singleMetric();
      metric.addDimension('route', route);
      metric.addMetric(METRICS.serverErrors, MetricUnit.Count, 1);
    }
    return { ...result, headers: { ...API_SECURITY_HEADERS, ...result.headers } };
  };
}
