/**
 * A busy evening on the local runtime (issue 22): `visitors` visitors at once, each ordering 3d, anime (generative)
 * and sketch (engine) on their own photo, while the local Bedrock allows `rpm` requests per minute per model (AWS's
 * ThrottlingException beyond). Measures the wall time from the first payment until every order is final, and what
 * was refunded. Run: `npx tsx bench/busy-evening.ts [visitors] [rpm]`. Target: 0 refunded.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLocalRuntime } from '../local/runtime';
import { photo } from '../test/fixtures/photos';
import { benchClient } from './client';

const PHOTOS = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png', 'rocket.jpg'];
const STYLES = ['3d', 'anime', 'sketch'];

export interface BusyEveningResult {
  orders: number;
  rpm: number;
  /** First payment → every order completed or failed. */
  ms: number;
  /** Orders with any image refunded, and images refunded / delivered in all. */
  ordersRefunded: number;
  imagesRefunded: number;
  imagesDelivered: number;
}

export async function runBusyEveningBench(visitors = 6, rpm = 6): Promise<BusyEveningResult> {
  if (visitors < 1 || visitors > PHOTOS.length) throw new Error(`visitors: 1 to ${PHOTOS.length}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-bench-'));
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir,
    paymentMode: 'simulated',
    bedrockRequestsPerMinute: rpm,
    // Throttled calls are expected here: only errors are worth a line beside the figure.
    logLevel: 'ERROR',
  });
  try {
    const { generation } = benchClient(runtime.url);
    // Each visitor (their own browser) has their photo uploaded and moderated first, as the site does before checkout.
    const orders = await Promise.all(
      PHOTOS.slice(0, visitors).map(async (file, i) => {
        const visitor = benchClient(runtime.url);
        const hash = await visitor.moderatedPhoto(photo(file));
        return visitor.call('POST', '/api/checkout', {
          email: `visitor${i}@example.com`,
          hashes: [hash],
          styles: STYLES,
        });
      }),
    );
    // All pay at once.
    const t0 = performance.now();
    const finals = await Promise.all(
      orders.map(async (order) => {
        const paid = await fetch(`${runtime.stripeUrl}/__simulate/pay/${order.session_id}`, { method: 'POST' });
        if (!paid.ok) throw new Error(`pay: ${paid.status} ${await paid.text()}`);
        return generation(order.order_id, 250);
      }),
    );
    const ms = performance.now() - t0;
    await runtime.idle();
    return {
      orders: visitors,
      rpm,
      ms,
      ordersRefunded: finals.filter((g) => (g.refund?.items ?? 0) > 0).length,
      imagesRefunded: finals.reduce((n, g) => n + (g.refund?.items ?? 0), 0),
      imagesDelivered: finals.reduce((n, g) => n + g.images.length, 0),
    };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const formatBusyEvening = (r: BusyEveningResult) =>
  `busy evening: ${r.orders} orders × ${STYLES.join('/')} at once, Bedrock ${r.rpm} requests/min per model: ${(r.ms / 1000).toFixed(0)} s until all final, ${r.imagesDelivered} images delivered, ${r.imagesRefunded} refunded (${r.ordersRefunded} orders with refunds; target 0)`;

if (require.main === module) {
  const [visitors, rpm] = process.argv.slice(2).map(Number);
  runBusyEveningBench(visitors || undefined, rpm || undefined).then(
    (r) => {
      console.log(formatBusyEvening(r));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
