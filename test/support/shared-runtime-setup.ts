import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildFrontendIfStale } from '../../frontend/build/when-stale';
import { startRuntimeProcess } from './runtime-child';
import { SHARED_RUNTIME_VAR, type SharedRuntime } from './shared-runtime';

/** Jest globalSetup of the browser project: builds the site if stale, starts the shared runtime (shared-runtime.ts). */
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
  process.env[SHARED_RUNTIME_VAR] = JSON.stringify(shared);
}
