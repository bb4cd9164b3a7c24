import { S3RVER_CREDENTIALS } from '../../local/emulators';
import { startEngineContainer } from '../../local/engine-container';

/** The engine's container in its own thread: it answers, and one that dies is replaced on the same address. */
describe('local engine container', () => {
  test('answers /ping, is started again after it dies, and closes', async () => {
    const logs: string[] = [];
    const container = await startEngineContainer({
      s3: { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: S3RVER_CREDENTIALS },
      log: (m) => logs.push(m),
    });
    const ping = async () => (await fetch(`${container.url}/ping`)).status;
    try {
      expect(await ping()).toBe(200);
      await container.crash();
      await expect(ping()).rejects.toThrow();
      // SageMaker replaces a failed container; the endpoint's address does not change.
      const until = Date.now() + 60_000;
      let status = 0;
      while (Date.now() < until && status !== 200) {
        status = await ping().catch(() => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect(container.restarts()).toBe(1);
      expect(logs).toEqual([expect.stringMatching(/Engine container stopped .*starting a new one/)]);
    } finally {
      await container.close();
    }
    await expect(ping()).rejects.toThrow();
  });

  test('two side by side (two runtimes on one machine) each answer on their own port, neither dies', async () => {
    const logs: string[] = [];
    const start = () =>
      startEngineContainer({
        s3: { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: S3RVER_CREDENTIALS },
        log: (m) => logs.push(m),
      });
    const containers = await Promise.all([start(), start()]);
    try {
      expect(new Set(containers.map((c) => c.url)).size).toBe(2);
      // warmed as the runtime warms them: a container that then also took the SageMaker port (8080) would make the
      // other one fail, and be restarted
      await Promise.all(containers.map((c) => c.warm()));
      await new Promise((r) => setTimeout(r, 2000));
      for (const c of containers) expect((await fetch(`${c.url}/ping`)).status).toBe(200);
      expect(containers.map((c) => c.restarts())).toEqual([0, 0]);
      expect(logs).toEqual([]);
    } finally {
      await Promise.all(containers.map((c) => c.close()));
    }
  });
});
