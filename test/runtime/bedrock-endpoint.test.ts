import { GENERATIVE_PRESETS } from '../../domain/generative';
import { startLocalBedrock } from '../../local/bedrock/server';
import { startBedrockFaults } from '../support/bedrock';
import { moderate } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto, waitForJob } from '../support/runtime';

/**
 * AWS_ENDPOINT_URL_BEDROCK_RUNTIME set before the runtime starts (a real account from a laptop): the runtime uses
 * that endpoint instead of its stand-in, and the calls are signed with the default chain's credentials, not the
 * emulators'.
 */
describe('a Bedrock endpoint given at start', () => {
  const saved = { ...process.env };
  let external: Awaited<ReturnType<typeof startLocalBedrock>>;
  let recorder: Awaited<ReturnType<typeof startBedrockFaults>>;
  let runtime: Awaited<ReturnType<typeof startTestRuntime>> | undefined;

  beforeAll(async () => {
    external = await startLocalBedrock({ styles: { '3d': GENERATIVE_PRESETS['3d'], anime: GENERATIVE_PRESETS.anime } });
    recorder = await startBedrockFaults(external.url);
  });
  afterAll(async () => {
    await runtime?.idle();
    await runtime?.close();
    await recorder?.close();
    await external?.close();
    for (const k of ['AWS_ENDPOINT_URL_BEDROCK_RUNTIME', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  test('is used instead of the stand-in, with default-chain credentials', async () => {
    process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = recorder.url;
    process.env.AWS_ACCESS_KEY_ID = 'AKIALAPTOPEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'laptop-secret';
    runtime = await startTestRuntime({ paymentMode: 'simulated' });
    expect(runtime.bedrock.url).not.toBe(recorder.url);
    const client = api(runtime.url);
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    await moderate(client, [hash]);
    const job = await client.post('/api/process-thumbnail', { image_hash: hash }); // 3d and anime through the given endpoint
    expect(await waitForJob(client, job.body.job_id)).toBe('SUCCESS');
    expect(recorder.requests.map((r) => r.style).sort()).toEqual(['3d', 'anime']);
    for (const r of recorder.requests) expect(r.authorization).toContain('Credential=AKIALAPTOPEXAMPLE/');
    const thumbs = (await client.get(`/api/get-thumbnails/${hash}`)).body as {
      style: { id: string };
      image: string | null;
    }[];
    expect(thumbs.filter((t) => t.image).map((t) => t.style.id)).toEqual(expect.arrayContaining(['3d', 'anime']));
  });
});
