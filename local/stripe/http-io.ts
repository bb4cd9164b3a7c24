/** Requests and answers of the local Stripe: its form encoding, its error shape, JSON, HTML and redirects. */
import type * as http from 'node:http';
import { readBody } from '../../engine/http-body';

/** A Stripe API error: `{"error": {type, message, param?, code?}}`; the SDK picks its error class from the status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { param?: string; code?: string; type?: string } = {},
  ) {
    super(message);
  }

  toBody() {
    return { error: { type: 'invalid_request_error', message: this.message, ...this.extra } };
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, message, { param, code });

/** A decoded form: strings at the leaves, objects for bracketed keys (`a[b][0]=x`); arrays are objects keyed 0, 1, … */
export interface Form {
  [key: string]: string | Form;
}

/** The SDK's encoding (bracket notation, as a POST body or a query string) as a tree of null-prototype objects. */
export function parseForm(text: string): Form {
  const root: Form = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    for (const seg of path.slice(0, -1)) {
      if (typeof node[seg] !== 'object') node[seg] = Object.create(null) as Form;
      node = node[seg] as Form;
    }
    node[path[path.length - 1]] = value;
  }
  return root;
}

export async function readText(req: http.IncomingMessage): Promise<string> {
  const body = await readBody(req, 1024 * 1024);
  if (!body) throw new StripeApiError(413, 'Request body too large');
  return body.toString('utf8');
}

export function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export const sendJson = (res: http.ServerResponse, status: number, value: unknown, headers = {}) =>
  send(res, status, `${JSON.stringify(value, null, 2)}\n`, { 'Content-Type': 'application/json', ...headers });

export const sendHtml = (res: http.ServerResponse, status: number, html: string) =>
  send(res, status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  });

export const redirect = (res: http.ServerResponse, location: string) => send(res, 303, '', { Location: location });
