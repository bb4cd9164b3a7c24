import type { z } from 'zod';
import type { Contract, RouteName } from './contract';
import { WEBHOOK_TIMEOUT_SECONDS } from './orders';
/**
 * The one route table. The CDK stack makes one Lambda + API Gateway route per entry; the local runtime
 * serves the same routes by reading them back out of the synthesized template. List only routes that work.
 */
export type Access =
  | 'images:read'
  | 'images:write'
  | 'jobs:read'
  | 'jobs:write'
  | 'orders:read'
  | 'orders:write'
  | 'generations:read'
  | 'generations:write'
  | 'signups:read'
  | 'signups:write'
  /** Work done once (lambdas/lib/idempotency.ts): its records in the events table, only through that module. */
  | 'idempotency'
  | 'counters:read'
  | 'counters:write'
  | 'holds:read'
  | 'holds:write'
  | 'shares:read'
  | 'shares:write'
  | 'erasures:write'
  // Media bucket, per key prefix (lib/storage.ts MEDIA_PREFIX) and action: read = GET/HEAD, write = PUT, delete.
  | 'media:uploads:read'
  | 'media:uploads:write'
  | 'media:uploads:delete'
  | 'media:previews:read'
  | 'media:previews:write'
  | 'media:previews:delete'
  | 'media:outputs:read'
  | 'media:outputs:write'
  | 'media:outputs:delete'
  | 'media:analysis:delete'
  | 'media:shares:read'
  | 'media:shares:write'
  | 'media:shares:delete'
  // Jobs machine: start an execution, or only look at one (never both unless the function starts jobs).
  | 'jobs-machine:start'
  | 'jobs-machine:read'
  | 'pipeline:start'
  | 'pipeline:manage'
  | 'payments:secret'
  | 'rekognition'
  | 'engine'
  /** bedrock:InvokeModel on exactly the configured generative models (lib/bedrock-access.ts). */
  | 'bedrock'
  | 'mail';

/**
 * The site paths CloudFront sends to the API instead of the site bucket (lib/site.ts); the local gateway routes the
 * same ones. Share pages are answered by the API so that crawlers, which run no script, see each share's own picture.
 */
export const API_ORIGIN_PATHS = ['/api/*', '/image/*'] as const;

/** True when a request path goes to the API (an API_ORIGIN_PATHS pattern matches it). */
export function isApiOriginPath(pathname: string): boolean {
  return API_ORIGIN_PATHS.some((p) => pathname.startsWith(p.slice(0, -1)) || pathname === p.slice(0, -2));
}

export interface RouteDef {
  readonly method: 'GET' | 'POST';
  /** API Gateway path syntax: `{name}` for parameters. */
  readonly path: string;
  /** Handler module under lambdas/routes/, exporting `handler`. */
  readonly handler: string;
  /** What the function may touch; the stack turns this into IAM grants. */
  readonly access: readonly Access[];
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
  /** Starts paid-for work (a model call, an execution, a payment session, a stored record): the WAF limits these
   *  per client more strictly than the rest (lib/edge.ts). */
  readonly startsWork?: true;
}

/** What erasing an order touches (lambdas/lib/erasure.ts): its records, its images and share links, released photos. */
const ERASES_ORDERS: readonly Access[] = [
  'orders:write',
  'generations:write',
  'images:write',
  'holds:write',
  'shares:write',
  'media:uploads:read',
  'media:uploads:delete',
  'media:previews:delete',
  'media:outputs:delete',
  'media:analysis:delete',
  'media:shares:delete',
];

export const ROUTES: readonly RouteDef[] = [
  { method: 'GET', path: '/api/status', handler: 'status', access: [] },
  { method: 'GET', path: '/api/config', handler: 'config', access: [] },
  { method: 'GET', path: '/api/available-styles', handler: 'available-styles', access: [] },
  {
    method: 'POST',
    path: '/api/upload-image',
    handler: 'upload-image',
    access: [
      'images:read',
      'images:write',
      'holds:read',
      'holds:write',
      'counters:write',
      'media:uploads:read',
      'media:uploads:write',
      'media:uploads:delete',
    ],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/process-moderation',
    handler: 'process-moderation',
    // uploads write and delete: a registration's proof upload becomes the photo's stored copy, or is removed
    access: [
      'images:read',
      'images:write',
      'holds:read',
      'holds:write',
      'jobs:write',
      'counters:write',
      'media:uploads:read',
      'media:uploads:write',
      'media:uploads:delete',
      'jobs-machine:start',
    ],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/process-thumbnail',
    handler: 'process-thumbnail',
    access: ['images:read', 'holds:read', 'jobs:write', 'jobs-machine:start'],
    startsWork: true,
  },
  {
    method: 'GET',
    path: '/api/jobs/{job_id}',
    handler: 'get-job',
    access: ['jobs:read', 'jobs:write', 'jobs-machine:read'],
  },
  {
    method: 'GET',
    path: '/api/get-moderation/{image_hash}',
    handler: 'get-moderation',
    access: ['images:read', 'holds:read'],
  },
  {
    method: 'GET',
    path: '/api/get-thumbnails/{image_hash}',
    handler: 'get-thumbnails',
    access: ['images:read', 'holds:read', 'media:previews:read'],
  },
  {
    method: 'POST',
    path: '/api/checkout',
    handler: 'checkout',
    access: ['images:read', 'holds:read', 'holds:write', 'orders:write', 'payments:secret'],
    timeoutSeconds: 30,
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/preview-signup',
    handler: 'preview-signup',
    access: ['holds:read', 'signups:write'],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/stripe-webhook',
    handler: 'stripe-webhook',
    access: ['orders:write', 'generations:write', 'shares:write', 'idempotency', 'pipeline:start', 'payments:secret'],
    timeoutSeconds: WEBHOOK_TIMEOUT_SECONDS,
  },
  {
    method: 'POST',
    path: '/api/generation/{id}/delete',
    handler: 'delete-order-data',
    access: ERASES_ORDERS,
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/erasure-request',
    handler: 'request-erasure',
    access: ['erasures:write', 'mail'],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/erasure/{token}',
    handler: 'confirm-erasure',
    // and the address's sign-ups, and its used link
    access: [...ERASES_ORDERS, 'signups:write', 'erasures:write'],
  },
  {
    method: 'GET',
    path: '/api/generation/{id}',
    handler: 'get-generation',
    access: ['generations:read', 'orders:read', 'media:outputs:read'],
  },
  {
    method: 'GET',
    path: '/api/image/{id}/{style}',
    handler: 'get-image',
    access: ['shares:read', 'generations:read', 'media:outputs:read'],
  },
  {
    method: 'GET',
    path: '/api/image/{id}',
    handler: 'get-images',
    access: ['shares:read', 'generations:read', 'media:outputs:read'],
  },
  {
    method: 'GET',
    path: '/api/share-card/{id}/{style}',
    handler: 'share-card',
    access: ['shares:read', 'media:shares:read'],
  },
  { method: 'GET', path: '/image/{id}/{style}', handler: 'share-page', access: ['shares:read', 'generations:read'] },
  { method: 'GET', path: '/image/{id}', handler: 'share-gallery-page', access: ['shares:read', 'generations:read'] },
];

/**
 * Lambda-safe construct id from a route, e.g. "POST /api/upload-image" -> "PostUploadImage"; a route outside /api
 * says so ("GET /image/{id}" -> "GetPageImageId"), so it never takes the id of its /api namesake.
 */
export function routeId(route: RouteDef): string {
  const rest = route.path.startsWith('/api/') ? route.path.slice('/api/'.length) : `page${route.path}`;
  const words = `${route.method} ${rest}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('');
}

type ParamsOf<R extends RouteName> = Contract[R] extends { params: infer S extends z.ZodType } ? z.input<S> : undefined;

/**
 * A route's URL path with its parameters filled in (each URI-encoded), from the one route table: the browser's
 * client (frontend/src/lib/api.ts) builds every request here instead of typing the paths again.
 */
export function apiPath<R extends RouteName>(
  handler: R,
  ...[params]: ParamsOf<R> extends undefined ? [] : [ParamsOf<R>]
): string {
  const route = ROUTES.find((r) => r.handler === handler);
  if (!route) throw new Error(`No route has the handler ${handler}`);
  const values = (params ?? {}) as Record<string, string>;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`${route.path} needs ${name}`);
    return encodeURIComponent(values[name]);
  });
}
