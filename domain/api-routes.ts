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
  | 'events:read'
  | 'events:write'
  | 'counters:read'
  | 'counters:write'
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
      'counters:write',
      'media:uploads:read',
      'media:uploads:write',
      'media:uploads:delete',
    ],
  },
  {
    method: 'POST',
    path: '/api/process-moderation',
    handler: 'process-moderation',
    access: ['images:read', 'jobs:write', 'counters:write', 'media:uploads:read', 'jobs-machine:start'],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/process-thumbnail',
    handler: 'process-thumbnail',
    access: ['images:read', 'jobs:write', 'jobs-machine:start'],
    startsWork: true,
  },
  {
    method: 'GET',
    path: '/api/jobs/{job_id}',
    handler: 'get-job',
    access: ['jobs:read', 'jobs:write', 'jobs-machine:read'],
  },
  { method: 'GET', path: '/api/get-moderation/{image_hash}', handler: 'get-moderation', access: ['images:read'] },
  {
    method: 'GET',
    path: '/api/get-thumbnails/{image_hash}',
    handler: 'get-thumbnails',
    access: ['images:read', 'media:previews:read'],
  },
  {
    method: 'POST',
    path: '/api/checkout',
    handler: 'checkout',
    access: ['images:read', 'orders:write', 'payments:secret'],
    timeoutSeconds: 30,
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/preview-signup',
    handler: 'preview-signup',
    access: ['signups:write'],
    startsWork: true,
  },
  {
    method: 'POST',
    path: '/api/stripe-webhook',
    handler: 'stripe-webhook',
    access: ['orders:write', 'generations:write', 'events:write', 'pipeline:start', 'payments:secret'],
    timeoutSeconds: WEBHOOK_TIMEOUT_SECONDS,
  },
  {
    method: 'POST',
    path: '/api/generation/{id}/delete',
    handler: 'delete-order-data',
    access: [
      'orders:write',
      'generations:write',
      'images:write',
      'signups:write',
      'media:uploads:read',
      'media:uploads:delete',
      'media:previews:delete',
      'media:outputs:delete',
      'media:analysis:delete',
    ],
  },
  {
    method: 'GET',
    path: '/api/generation/{id}',
    handler: 'get-generation',
    access: ['generations:read', 'orders:read', 'media:outputs:read'],
  },
  {
    method: 'GET',
    path: '/api/image/{hash}/{style}',
    handler: 'get-image',
    access: ['images:read', 'media:outputs:read'],
  },
  { method: 'GET', path: '/api/image/{hash}', handler: 'get-images', access: ['images:read', 'media:outputs:read'] },
];

/** Lambda-safe construct id from a route, e.g. "POST /api/upload-image" -> "PostUploadImage". */
export function routeId(route: RouteDef): string {
  const words = `${route.method} ${route.path.replace(/^\/api\//, '')}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
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
