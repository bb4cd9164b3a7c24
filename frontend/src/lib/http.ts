/** Small fetch helpers shared by the API client. */

const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * The response's status text. Over HTTP/2 (CloudFront) browsers report an empty statusText, so fall
 * back to the standard reason phrase, then to the bare code.
 */
export function statusTextOf(res: Pick<Response, 'status' | 'statusText'>): string {
  return res.statusText || REASON_PHRASES[res.status] || `HTTP ${res.status}`;
}

/** The `detail` of an error body ({"detail": "..."}), as text, or undefined. Never throws. */
export async function readDetail(res: Response): Promise<string | undefined> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return undefined;
  }
  return detailFromBody(text);
}

export function detailFromBody(text: string): string | undefined {
  if (!text) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'detail' in body) {
      const detail = (body as { detail: unknown }).detail;
      if (typeof detail === 'string') return detail || undefined;
      if (Array.isArray(detail)) {
        const msgs = detail.map((d) =>
          d && typeof d === 'object' && 'msg' in d ? String((d as { msg: unknown }).msg) : JSON.stringify(d),
        );
        return msgs.join('; ') || undefined;
      }
      if (detail != null) return JSON.stringify(detail);
    }
  } catch {
    // not JSON
  }
  return undefined;
}

export async function postJson(url: string, body: unknown, init?: RequestInit): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

export async function getJson(url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { headers: { Accept: 'application/json' }, ...init });
}

/** Message of an unknown thrown value, or the fallback when it is not an Error. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException ? err.name === 'AbortError' : err instanceof Error && err.name === 'AbortError';
}
