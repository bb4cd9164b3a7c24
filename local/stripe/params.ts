/**
 * Request decoding and parameter validation for the local Stripe stand-in.
 *
 * The stripe-node SDK sends v1 requests as `application/x-www-form-urlencoded` with nested
 * values in bracket notation (`line_items[0][price_data][currency]=usd`, arrays as indexed
 * keys, `null` as an empty string meaning "unset"). GET parameters use the same encoding in
 * the query string. This module turns that into a tree and offers Stripe-style validators
 * that fail with Stripe-shaped errors.
 */

/** A Stripe API error. Serialised as `{"error": {...}}`; the SDK picks the error class from the HTTP status. */
export class StripeApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param?: string;
  readonly code?: string;

  constructor(status: number, message: string, opts: { param?: string; code?: string; type?: string } = {}) {
    super(message);
    this.name = 'StripeApiError';
    this.status = status;
    this.type = opts.type ?? 'invalid_request_error';
    this.param = opts.param;
    this.code = opts.code;
  }

  toBody(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.code !== undefined) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`;
    }
    return { error };
  }
}

export const invalid = (message: string, param?: string, code?: string): StripeApiError =>
  new StripeApiError(400, message, { param, code });

/** A parameter Stripe accepts but the stand-in does not implement (it would change what is charged). */
export const unsupported = (param: string, what = `\`${param}\``): StripeApiError =>
  invalid(
    `The local Stripe simulator does not support ${what}. Extend local/stripe/ or use payment mode 'stripe'.`,
    param,
  );

export const missing = (param: string): StripeApiError =>
  new StripeApiError(400, `Missing required param: ${param}.`, { param, code: 'parameter_missing' });

export const noSuch = (kind: string, id: string, param?: string, status = 400): StripeApiError =>
  new StripeApiError(status, `No such ${kind}: '${id}'`, { param, code: 'resource_missing' });

/** A decoded form value: strings at the leaves, objects (null-prototype) for bracketed keys. */
export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function splitKey(raw: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(raw);
  if (!m) return [raw];
  const segs = [m[1]];
  for (const part of m[2].matchAll(/\[([^[\]]*)\]/g)) segs.push(part[1]);
  return segs;
}

function nextIndex(node: FormObject): string {
  let i = 0;
  while (Object.hasOwn(node, String(i))) i++;
  return String(i);
}

/** Parses a urlencoded body (or query string without the `?`) into a nested tree. */
export function parseForm(body: string): FormObject {
  const root: FormObject = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(body)) {
    if (!rawKey) continue;
    const segs = splitKey(rawKey);
    let node = root;
    for (let i = 0; i < segs.length; i++) {
      let seg = segs[i];
      if (seg === '') seg = nextIndex(node);
      if (FORBIDDEN_KEYS.has(seg)) throw invalid(`Invalid parameter name: ${rawKey}`);
      const last = i === segs.length - 1;
      const existing = node[seg];
      if (last) {
        if (existing !== undefined && typeof existing !== 'string') {
          throw invalid(`Invalid request: \`${rawKey}\` was sent both as a value and as a hash.`, segs[0]);
        }
        node[seg] = value;
      } else {
        if (existing === undefined) {
          const child: FormObject = Object.create(null);
          node[seg] = child;
          node = child;
        } else if (typeof existing === 'string') {
          // `metadata=` (unset) followed by `metadata[k]=v`: the hash wins, as in Stripe.
          if (existing !== '')
            throw invalid(`Invalid request: \`${rawKey}\` was sent both as a value and as a hash.`, segs[0]);
          const child: FormObject = Object.create(null);
          node[seg] = child;
          node = child;
        } else {
          node = existing;
        }
      }
    }
  }
  return root;
}

export const paramName = (prefix: string, key: string): string => (prefix ? `${prefix}[${key}]` : key);

/** Rejects keys Stripe would not recognise ("Received unknown parameter: ..."). */
export function checkKnown(obj: FormObject, allowed: readonly string[], prefix = ''): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      const name = paramName(prefix, key);
      throw new StripeApiError(400, `Received unknown parameter: ${name}`, { param: name, code: 'parameter_unknown' });
    }
  }
}

/** Reads an optional string. Empty string counts as absent (Stripe's "unset"). */
export function optString(obj: FormObject, key: string, prefix = '', maxLength = 5000): string | undefined {
  const v = obj[key];
  const name = paramName(prefix, key);
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw invalid(`Invalid string: ${name} must be a string, not a hash.`, name);
  if (v.length > maxLength) {
    throw invalid(
      `Invalid string: ${v.slice(0, 20)}...; must be at most ${maxLength} characters`,
      name,
      'string_length',
    );
  }
  return v;
}

export function reqString(obj: FormObject, key: string, prefix = '', maxLength = 5000): string {
  const v = optString(obj, key, prefix, maxLength);
  if (v === undefined) throw missing(paramName(prefix, key));
  return v;
}

export function optInt(
  obj: FormObject,
  key: string,
  prefix = '',
  opts: { min?: number; max?: number } = {},
): number | undefined {
  const v = obj[key];
  const name = paramName(prefix, key);
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v.trim())) {
    throw invalid(`Invalid integer: ${typeof v === 'string' ? v : '(hash)'}`, name, 'parameter_invalid_integer');
  }
  const n = Number(v.trim());
  if (!Number.isSafeInteger(n)) throw invalid(`Invalid integer: ${v}`, name, 'parameter_invalid_integer');
  if (opts.min !== undefined && n < opts.min) {
    throw invalid(`This value must be greater than or equal to ${opts.min}.`, name, 'parameter_invalid_integer');
  }
  if (opts.max !== undefined && n > opts.max) {
    throw invalid(`This value must be less than or equal to ${opts.max}.`, name, 'parameter_invalid_integer');
  }
  return n;
}

export function optBool(obj: FormObject, key: string, prefix = ''): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid(`Invalid boolean: ${typeof v === 'string' ? v : '(hash)'}`, paramName(prefix, key));
}

export function optEnum<T extends string>(
  obj: FormObject,
  key: string,
  values: readonly T[],
  prefix = '',
): T | undefined {
  const v = optString(obj, key, prefix);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) {
    const list = values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}` : values[0];
    throw invalid(`Invalid ${key}: must be one of ${list}`, paramName(prefix, key));
  }
  return v as T;
}

export function optObject(obj: FormObject, key: string, prefix = ''): FormObject | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'string') throw invalid('Invalid hash', paramName(prefix, key));
  return v;
}

/** Reads an array sent as indexed keys (`a[0]=..&a[1]=..`). Gaps are closed, order is by index. */
export function optArray(obj: FormObject, key: string, prefix = ''): FormValue[] | undefined {
  const v = obj[key];
  const name = paramName(prefix, key);
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'string') throw invalid('Invalid array', name);
  const keys = Object.keys(v);
  if (!keys.every((k) => /^\d+$/.test(k))) throw invalid('Invalid array', name);
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k]);
}

/** `expand[]` as a list of dotted paths. */
export function expandList(obj: FormObject): string[] {
  const arr = optArray(obj, 'expand');
  if (!arr) return [];
  return arr.map((v, i) => {
    if (typeof v !== 'string') throw invalid('Invalid string', `expand[${i}]`);
    return v;
  });
}

/** Metadata as Stripe validates it: up to 50 keys, keys ≤ 40 chars, values ≤ 500 chars, strings only. */
export function optMetadata(obj: FormObject, key: string, prefix = ''): Record<string, string> | undefined {
  const v = obj[key];
  const name = paramName(prefix, key);
  if (v === undefined) return undefined;
  if (v === '') return {};
  if (typeof v === 'string') throw invalid('Invalid hash', name);
  const entries: [string, string][] = [];
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') throw invalid(`Invalid value type: ${name}[${k}] must be a string`, `${name}[${k}]`);
    if (k.length > 40)
      throw invalid(
        `Metadata keys can have up to 40 characters, but you passed in a key that is ${k.length} characters.`,
        `${name}[${k}]`,
      );
    if (val.length > 500) {
      throw invalid(
        `Metadata values can have up to 500 characters, but you passed in a value that is ${val.length} characters.`,
        `${name}[${k}]`,
      );
    }
    if (val !== '') entries.push([k, val]);
  }
  if (entries.length > 50) throw invalid('You can have up to 50 metadata keys.', name);
  return Object.fromEntries(entries);
}

export function isEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 512;
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s.replace(/\{CHECKOUT_SESSION_ID\}/g, 'x'));
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Stripe's `created` list filter: an exact Unix time (`created=123`) or a range (`created[gte]=…&created[lt]=…`, any
 * of gt, gte, lt, lte). Returns a predicate on an object's `created`; everything passes when the filter is absent.
 */
export function optCreatedFilter(obj: FormObject, key = 'created'): (created: number) => boolean {
  const v = obj[key];
  if (v === undefined || v === '') return () => true;
  if (typeof v === 'string') {
    const exact = optInt(obj, key);
    return (c) => c === exact;
  }
  checkKnown(v, ['gt', 'gte', 'lt', 'lte'], key);
  const gt = optInt(v, 'gt', key);
  const gte = optInt(v, 'gte', key);
  const lt = optInt(v, 'lt', key);
  const lte = optInt(v, 'lte', key);
  return (c) =>
    (gt === undefined || c > gt) &&
    (gte === undefined || c >= gte) &&
    (lt === undefined || c < lt) &&
    (lte === undefined || c <= lte);
}
