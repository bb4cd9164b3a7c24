import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEngineRequest } from '../../domain/engine-request';
import { ENGINE_ERRORS } from '../../domain/wiring';

/** lambdas/lib/engine.ts: what the handlers send is what the engine parses (domain/engine-request.ts). */
describe('renderOnEngine', () => {
  const saved = { ...process.env };
  let server: http.Server;
  let bodies: unknown[];
  let answer: unknown;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'y',
      ENGINE_ENDPOINT: 'toonzap-engine',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
  });
  beforeEach(() => {
    bodies = [];
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((r) => server.close(r));
  });
  const load = () => {
    let mod!: typeof import('../../lambdas/lib/engine');
    jest.isolateModules(() => {
      mod = require('../../lambdas/lib/engine');
    });
    return mod;
  };
  const input = { bucket: 'media', key: 'uploads/abc' };

  test('sends a request the engine parses, with the defaults filled in, and returns the checked answer', async () => {
    const output = { style: 'anime', bucket: 'media', key: 'outputs/abc/anime.png' };
    answer = { outputs: [{ ...output, width: 640, height: 480 }], ms: 12 };
    await expect(load().renderOnEngine({ input, size: 2048, outputs: [output] })).resolves.toEqual(answer);
    expect(bodies).toHaveLength(1);
    expect(parseEngineRequest(bodies[0])).toEqual({
      batch: true,
      request: { input, size: 2048, kind: 'image', watermark: false, outputs: [output] },
    });
  });

  test('a malformed request fails here with its reason and is never sent', async () => {
    const bad = { input, outputs: [{ style: 'vaporwave', bucket: 'media', key: 'k' }] };
    await expect(load().renderOnEngine(bad)).rejects.toThrow(/Unknown style 'vaporwave'/);
    await expect(load().renderOnEngine({ input, size: 9000, outputs: [] })).rejects.toThrow(/"size" must be/);
    expect(bodies).toEqual([]);
  });

  test('checkOnEngine sends the check operation and returns the verdict, passed or not', async () => {
    const output = { bucket: 'media', key: 'outputs/abc/3d.png' };
    const face = { similarity: 0.21, box: [1, 2, 3, 4], renderBox: [4, 8, 12, 16] };
    answer = {
      ok: false,
      check: 'faces',
      reason: 'The face…',
      edgeCorrelation: 0.8,
      contrast: 40,
      faces: [face],
      ms: 9,
    };
    await expect(load().checkOnEngine({ input, output })).resolves.toEqual(answer);
    expect(parseEngineRequest(bodies[0])).toEqual({
      batch: false,
      check: true,
      request: { op: 'check', input, output },
    });
    // a verdict without its measures is not the engine's answer
    answer = { ok: true };
    await expect(load().checkOnEngine({ input, output })).rejects.toMatchObject({ name: ENGINE_ERRORS.unavailable });
  });

  test('an answer that is not the engine response is an engine failure the pipeline retries', async () => {
    answer = { rendered: true };
    const err = await load()
      .renderOnEngine({ input, outputs: [{ style: 'anime', bucket: 'media', key: 'k' }] })
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe(ENGINE_ERRORS.unavailable);
    expect((err as Error).message).toMatch(/"outputs"/);
  });
});
