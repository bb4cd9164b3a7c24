import type { z } from 'zod';
import type { ResponseOf, RouteName } from '../../domain/contract';

/** Minimal API Gateway HTTP API (payload 2.0) shapes: the only parts the handlers use. */
export interface HttpEvent {
  version?: string;
  routeKey?: string;
  rawPath: string;
  rawQueryString?: string;
  headers: Record<string, string | undefined>;
  pathParameters?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { http: { method: string; path: string; sourceIp?: string }; requestId?: string; domainName?: string; timeEpoch?: number };
}

export interface HttpResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

/** An error whose message is safe to show the caller, as `{"detail": message}`. */
export class HttpError extends Error {
  constructor(readonly statusCode: number, message: string) {
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
export function respond<R extends RouteName>(_route: R, statusCode: number, value: ResponseOf<R>, headers: Record<string, string> = {}): HttpResult {
  return json(statusCode, value, headers);
}

export function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** Parses a JSON object body or throws a 400 that says what is wrong. */
export function jsonBody(event: HttpEvent): Record<string, unknown> {
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

/** Longest path parameter any route accepts (ids are 36, hashes 64 characters); longer ones are refused unread. */
export const MAX_PATH_PARAM = 200;

/**
 * A path parameter, percent-decoded. Malformed escapes (`%E0%A4%A`), over-long values and control characters are the
 * caller's mistake: a short 400, never a 500, and the value is not echoed back.
 */
export function pathParam(event: HttpEvent, name: string): string {
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
  // Our schemas carry user-facing messages; zod's own (a wrong type deep inside) get the field's name in front.
  const detail = issue.code === 'custom' || !field || issue.message.includes(String(issue.path[0])) ? issue.message : `${field}: ${issue.message}`;
  throw badRequest(detail);
}

/** The JSON body, parsed by the route's request schema. */
export function parseBody<S extends z.ZodType>(event: HttpEvent, schema: S): z.output<S> {
  return parseWith(schema, jsonBody(event));
}

/** Wraps a handler: HttpErrors become `{"detail"}` answers; anything else is logged and becomes a 500 without internals. */
export function httpHandler(fn: (event: HttpEvent) => Promise<HttpResult>): (event: HttpEvent) => Promise<HttpResult> {
  return async (event) => {
    try {
      return await fn(event);
    } catch (err) {
      if (err instanceof HttpError) return json(err.statusCode, { detail: err.message });
      console.error(JSON.stringify({ level: 'error', route: event.routeKey, message: (err as Error).message, stack: (err as Error).stack }));
      return json(500, { detail: 'Internal server error. Please try again.' });
    }
  };
}
