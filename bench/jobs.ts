/**
 * Style-step latency on the local runtime, for one 12 MP photo: moderation job (POST → SUCCESS), thumbnail job
 * (POST → SUCCESS, every style), and the sum, which is how long after the style step opens the previews can show
 * (the page also waits for its 2 s poll). Run: `npx tsx bench/jobs.ts`. Target: previews ≤ 2 s.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLocalRuntime } from '../local/runtime';
import { bigPhoto } from '../test/fixtures/photos';
import { benchClient } from './client';

export async function runJobsBench(): Promise<{ moderationMs: number; thumbnailMs: number; totalMs: number }> {
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-bench-')),
  });
  try {
    const { call, job: until, upload } = benchClient(runtime.url);
    const bytes = await bigPhoto();
    const hash = await upload(bytes);
    const t0 = performance.now();
    await until((await call('POST', '/api/process-moderation', { image_hashes: [hash] })).job_id);
    const t1 = performance.now();
    await until((await call('POST', '/api/process-thumbnail', { image_hash: hash })).job_id);
    const t2 = performance.now();
    return { moderationMs: t1 - t0, thumbnailMs: t2 - t1, totalMs: t2 - t0 };
  } finally {
    await runtime.close();
  }
}

if (require.main === module) {
  runJobsBench().then(
    (r) => {
      console.log(
        `jobs (12 MP photo): moderation ${r.moderationMs.toFixed(0)} ms, previews of every style ${r.thumbnailMs.toFixed(0)} ms, together ${r.totalMs.toFixed(0)} ms (target ≤ 2000 ms)`,
      );
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
