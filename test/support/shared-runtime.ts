/**
 * One local runtime for every browser suite that needs the product as `npm start` serves it: started once by Jest's
 * globalSetup (shared-runtime-setup.ts) in a process of its own, as `npm start` runs it, instead of once per file
 * inside Jest's module sandbox (each start loaded the stack, the moderation model and the engine's threads again:
 * seconds of CPU per file). Suites that need another configuration (prelaunch, one engine slot) start their own.
 * Visitors are apart by their cookies, so suites sharing it see only their own photos and orders. This module
 * imports nothing, so a suite that uses it loads no part of the runtime.
 */
export interface SharedRuntime {
  url: string;
  s3Url: string;
  stripeUrl: string;
  mailUrl: string;
  env: Record<string, string>;
}

export const SHARED_RUNTIME_VAR = 'TOONZAP_SHARED_RUNTIME';

/** The shared runtime, in a test. */
export function sharedRuntime(): SharedRuntime {
  const value = process.env[SHARED_RUNTIME_VAR];
  if (!value) throw new Error('No shared runtime: this suite must run in the browser project (jest.config.cjs).');
  return JSON.parse(value) as SharedRuntime;
}
