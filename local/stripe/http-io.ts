/** Reading requests and writing responses, for the stand-in's routes (api-routes, checkout-routes, simulate-routes). */
import type * as http from 'node:http';
import { readBody } from '../../engine/http-body';

const MAX_BODY = 1024 * 1024;

/** An error with an HTTP status the server answers with (e.g. 413). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A path segment, percent-decoded where it is valid. */
export function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

export function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, no-store' };

export const sendJson = (
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) => send(res, status, `${JSON.stringify(value, null, 2)}\n`, { ...JSON_HEADERS, ...headers });

export const sendHtml = (res: http.ServerResponse, status: number, html: string, nonce: string) =>
  send(res, status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });

export const redirect = (res: http.ServerResponse, location: string) =>
  send(res, 303, '', { Location: location, 'Cache-Control': 'no-store' });

/** The body as text; a body over MAX_BODY is Stripe's 413. */
export async function readText(req: http.IncomingMessage): Promise<string> {
  const body = await readBody(req, MAX_BODY);
  if (!body) throw new HttpError(413, 'Request body too large');
  return body.toString('utf8');
}

/** Stripe's answer to a path it does not know. */
export const unrecognized = (method: string, pathname: string) =>
  `Unrecognized request URL (${method}: ${pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`;
