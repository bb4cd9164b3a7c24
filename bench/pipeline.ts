/**
 * Order pipeline latency on the local runtime: from the Stripe webhook (simulated payment) to the generation being
 * `completed`, for 1 photo × every style (8). Run: `npx tsx bench/pipeline.ts`. Target: ≤ 5 s. Two photos: the 512-px
 * astronaut (the target's figure) and the 12 MP bench JPEG, a phone photo's size, where decoding the photo costs what
 * it costs a customer's order (the first hid a full-size decode per image in the quality gate).
 *
 * The photo is uploaded, moderated and previewed first, as the site does before checkout, so the measurement is
 * exactly what happens after payment: webhook, re-moderation, full-size renders, refund check, e-mail.
 *
 * The end is the generation's own `finished_at` stamp, read once it is done; the bench polls once a second meanwhile
 * (the status page polls every 5 s). Polling every 20 ms for the end instead cost about 0.8 s of the figure (medians
 * of five paired runs, 9.6 s against 8.7 s): the polls' API calls and table reads ran on the cores the order needs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { STYLE_IDS } from '../domain/styles';
import { tableEnvVar } from '../domain/wiring';
import { startLocalRuntime } from '../local/runtime';
import { bigPhoto, photo } from '../test/fixtures/photos';
import { tableClient } from '../test/support/orders';
import { benchClient } from './client';

export interface PipelineBenchResult {
  /** Webhook delivered → generation completed. */
  ms: number;
  styles: number;
  /** Time until the webhook had been answered (inside `ms`). */
  webhookMs: number;
  /**
   * CPU time of this process (the runtime, the engine container's threads, sharp's) from the payment until the end
   * was seen: steadier than `ms` on a shared machine, and what two cores have to share.
   */
  cpuMs: number;
}

export async function runPipelineBench(
  opts: { photo?: Buffer; log?: (line: string) => void } = {},
): Promise<PipelineBenchResult> {
  const log = opts.log ?? (() => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-bench-'));
  const runtime = await startLocalRuntime({ port: 0, dataDir, paymentMode: 'simulated' });
  try {
    const { call, job, moderatedPhoto, generation } = benchClient(runtime.url);
    const hash = await moderatedPhoto(opts.photo ?? photo('astronaut.png'));
    await job((await call('POST', '/api/process-thumbnail', { image_hash: hash })).job_id);
    const order = await call('POST', '/api/checkout', {
      email: 'bench@example.com',
      hashes: [hash],
      styles: STYLE_IDS,
    });
    log(`order ${order.order_id}: 1 photo × ${STYLE_IDS.length} styles`);

    const t0 = Date.now(); // the clock the handlers stamp with
    const cpu0 = process.cpuUsage();
    const paid = await fetch(`${runtime.stripeUrl}/__simulate/pay/${order.session_id}`, { method: 'POST' });
    if (!paid.ok) throw new Error(`pay: ${paid.status} ${await paid.text()}`);
    const webhookMs = Date.now() - t0;
    const g = await generation(order.order_id, 1000);
    const cpu = process.cpuUsage(cpu0);
    if (g.status === 'failed') throw new Error(`generation failed: ${g.error}`);
    const { Item } = await tableClient(runtime).send(
      new GetCommand({ TableName: runtime.env[tableEnvVar('generations')], Key: { generation_id: order.order_id } }),
    );
    const ms = Date.parse(Item?.finished_at) - t0;
    if (!Number.isFinite(ms)) throw new Error(`generation ${order.order_id} has no finished_at`);
    await runtime.idle(); // the e-mail step runs after `completed` is visible
    return { ms, styles: STYLE_IDS.length, webhookMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Both orders, one line each. */
export async function pipelineLines(log?: (line: string) => void): Promise<string[]> {
  const line = (what: string, r: PipelineBenchResult) =>
    `pipeline: webhook → completed, 1 photo (${what}) × ${r.styles} styles: ${r.ms.toFixed(0)} ms, CPU ${r.cpuMs.toFixed(0)} ms (webhook answered after ${r.webhookMs.toFixed(0)} ms; target ≤ 5000 ms)`;
  const small = await runPipelineBench({ log });
  const big = await runPipelineBench({ photo: await bigPhoto(), log });
  return [line('512-px astronaut', small), line('12 MP JPEG', big)];
}

if (require.main === module) {
  pipelineLines(console.log).then(
    (lines) => {
      console.log(lines.join('\n'));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
