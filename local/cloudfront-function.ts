/**
 * Runs a CloudFront Function (viewer request) from the synthesized template the way cloudfront-js-2.0 does:
 * the code alone in a fresh context (no require, no process, no timers), `handler(event)` called per request
 * with the CloudFront event shape, and a time limit (generous: CloudFront's limit is on compute, not wall time).
 */
import * as vm from 'node:vm';

export interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string }>;
  headers: Record<string, { value: string }>;
  cookies: Record<string, { value: string }>;
}

export interface CfResponse {
  statusCode: number;
  statusDescription?: string;
  headers?: Record<string, { value: string }>;
  body?: string | { encoding: 'text' | 'base64'; data: string };
}

export type ViewerRequestHandler = (
  request: Omit<CfRequest, 'querystring' | 'headers' | 'cookies'> & Partial<CfRequest>,
) => CfRequest | CfResponse;

export function isResponse(out: CfRequest | CfResponse): out is CfResponse {
  return typeof (out as CfResponse).statusCode === 'number';
}

/** Compiles the function's code once; each call runs `handler` with a fresh copy of the event. */
export function loadViewerRequestFunction(code: string): ViewerRequestHandler {
  const context = vm.createContext({
    console: { log: (...args: unknown[]) => console.log('[cloudfront-function]', ...args) },
  });
  vm.runInContext(code, context, { filename: 'cloudfront-function.js', timeout: 1000 });
  const call = new vm.Script('JSON.stringify(handler(JSON.parse(__event)))', {
    filename: 'cloudfront-function-call.js',
  });
  return (request) => {
    const event = {
      version: '1.0',
      context: { eventType: 'viewer-request' },
      viewer: { ip: '127.0.0.1' },
      request: { querystring: {}, headers: {}, cookies: {}, ...request },
    };
    context.__event = JSON.stringify(event);
    // JSON in and out: the result holds no objects of the sandbox's realm.
    return JSON.parse(call.runInContext(context, { timeout: 1000 }) as string) as CfRequest | CfResponse;
  };
}
