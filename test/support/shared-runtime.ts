import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildFrontendIfStale } from '../../local/frontend-build';
import { startRuntimeProcess } from './orders';

/**
 * One local runtime for every browser suite that needs the product as `npm start` serves it: started once by Jest's
 * globalSetup in a process of its own, as `npm start` runs it, instead of once per file inside Jest's module sandbox
 * (each start loaded the stack, the moderation model and the engine's threads again: seconds of CPU per file). Suites
 * that need another configuration (prelaunch, one engine slot) still start their own. Visitors are apart by their
 * cookies, so suites sharing it see only their own photos and orders.
 */
export interface SharedRuntime {
  url: string;
  s3Url: string;
  stripeUrl: string;
  mailUrl: string;
  env: Record<string, string>;
}

const VAR = 'TOONZAP_SHARED_RUNTIME';
type Child = Awaited<ReturnType<typeof startRuntimeProcess>>;
const held = globalThis as { toonzapSharedRuntime?: Child };

export default async function setup(): Promise<void> {
  buildFrontendIfStale(() => {});
  const child = await startRuntimeProcess(fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-shared-')));
  held.toonzapSharedRuntime = child;
  const shared: SharedRuntime = {
    url: child.url,
    s3Url: child.env.AWS_ENDPOINT_URL_S3,
    stripeUrl: child.stripeUrl,
    mailUrl: child.mailUrl,
    env: child.env,
  };
  // Jest's workers are started after globalSetup, with its environment.
  process.env[VAR] = JSON.stringify(shared);
}

export async function teardown(): Promise<void> {
  await held.toonzapSharedRuntime?.stop();
}

/** The shared runtime, in a test. */
export function sharedRuntime(): SharedRuntime {
  const value = process.env[VAR];
  if (!value) throw new Error('No shared runtime: this suite must run in the browser project (jest.config.cjs).');
  return JSON.parse(value) as SharedRuntime;
}
