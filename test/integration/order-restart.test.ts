import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mediaKey } from '../../domain/wiring';
import { checkout, emailsTo, moderate, orderExecutions, pay, waitForGeneration } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';
import { startRuntimeProcess } from '../support/runtime-child';

/**
 * The runtime dies (SIGKILL: no clean-up at all) while an order is being generated. A new runtime on the same data
 * directory resumes the execution from its input, skips what was done, and the order completes with one e-mail.
 * The first runtime runs in a child process, so that it can really be killed, and so that the second one starts
 * with fresh handler modules, as a restarted process would. Its engine never answers the last style's render (the
 * child's hold, test/support/runtime-process.ts): the kill comes when an item is done and that one is not, on a fast
 * machine as on a loaded one.
 */
/** Styles the engine draws (the Bedrock ones have their own tests); the last one is held in the first runtime. */
const ENGINE_STYLES = ['comic', 'sketch', 'watercolor'];
const HELD = ENGINE_STYLES.at(-1);

describe('order pipeline across a restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-restart-'));
  let first: Awaited<ReturnType<typeof startRuntimeProcess>> | undefined;
  let second: Awaited<ReturnType<typeof startTestRuntime>> | undefined;

  afterAll(async () => {
    await first?.kill();
    await second?.idle();
    await second?.close();
  });

  test('an order interrupted mid-pipeline completes after a restart, with one e-mail', async () => {
    const email = 'restart@example.com';
    first = await startRuntimeProcess(dataDir, { holdRenders: new RegExp(`^outputs/.*/${HELD}\\.png$`) });
    let client = api(first.url);
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    await moderate(client, [hash]);
    const order = await checkout(client, email, [hash], ENGINE_STYLES);
    await pay(first, order.session_id);

    // Kill it while some images are done and the held one is being rendered.
    expect(await first.held()).toBe(mediaKey.output(order.order_id, hash, HELD!));
    const partial = await waitForGeneration(client, order.order_id, (g) => g.progress > 0);
    expect(partial.status).toBe('processing');
    expect(partial.progress).toBeLessThan(100);
    expect(partial.images.map((i) => i.styleId)).not.toContain(HELD);
    expect(await emailsTo(first, email)).toHaveLength(0);
    await first.kill();
    first = undefined;

    second = await startTestRuntime({ dataDir });
    expect(second.resumedExecutions).toContain(order.order_id);
    client = api(second.url);
    const done = await waitForGeneration(client, order.order_id, undefined, 180_000);
    await second.idle();
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(done.images.map((i) => i.styleId)).toEqual(ENGINE_STYLES);
    for (const image of done.images) {
      const res = await fetch(image.url);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(await emailsTo(second, email)).toHaveLength(1);
    expect(await orderExecutions(second, order.order_id)).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
  });
});
